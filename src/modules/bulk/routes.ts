import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { malformedMultipart } from '../../route-kit/multipart.ts';
import type { Services } from '../../services.ts';

/** Largest CSV accepted (5,000 rows of long posts fit comfortably). */
export const CSV_MAX_BYTES = 20 * 1024 * 1024;

const RowError = Type.Object({ code: Type.String(), message: Type.String(), column: Type.Optional(Type.String()) });
const BulkResult = Type.Object({
  total: Type.Integer(),
  valid: Type.Integer(),
  invalid: Type.Integer(),
  dryRun: Type.Boolean(),
  results: Type.Array(Type.Object({
    rowIndex: Type.Integer({ description: '1 = the first row after the header' }),
    ok: Type.Boolean(),
    createdPostId: Type.Union([Type.String(), Type.Null()]),
    errors: Type.Array(Type.String(), { description: 'Error codes, e.g. profiles_missing' }),
    errorDetails: Type.Array(RowError, { description: 'The same errors with message and CSV column' }),
  })),
  warnings: Type.Array(Type.String()),
});

export const bulkRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'bulk'> }> = async (app, { services }) => {
  await app.register(multipart, { limits: { fileSize: CSV_MAX_BYTES, files: 1, fields: 10 } });

  app.post('/posts/bulk-upload', {
    config: { permission: 'posts:write' },
    schema: {
      tags: ['Posts'], summary: 'Create posts from a CSV file (multipart field "file")',
      description: 'Columns: platforms and profiles (required); schedule_time + tz, or publish_now / is_draft / use_queue = true; ' +
        'post_content (or title); media_urls; tags; visibility; custom_content_<platform>; <platform>_thread_items; first_comment; ' +
        'subreddit; board_id; link. At most 5,000 rows. 200 when every row is valid, 207 when some are (valid rows are created), ' +
        '400 when the file is unusable or no row is valid. dryRun=true validates and creates nothing.',
      consumes: ['multipart/form-data'],
      querystring: Type.Object({ dryRun: Type.Optional(Type.Boolean({ default: false })) }),
      response: { 200: BulkResult, 207: BulkResult, 400: Type.Union([BulkResult, Type.Ref('ErrorResponse')]), 401: Type.Ref('ErrorResponse'), 403: Type.Ref('ErrorResponse'), 413: Type.Ref('ErrorResponse') },
    },
  }, async (req, reply) => {
    if (!req.isMultipart()) throw new AppError('VALIDATION_ERROR', 'Send the CSV as multipart/form-data in the field "file"', { fields: { file: ['is required'] } });
    let csv: Buffer | null = null;
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError('VALIDATION_ERROR', `Unexpected file field "${part.fieldname}"; use "file"`, { fields: { [part.fieldname]: ['use the field "file"'] } });
        }
        csv = await part.toBuffer();
      }
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new AppError('PAYLOAD_TOO_LARGE', `The CSV file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB`);
      }
      throw malformedMultipart(err) ?? err;
    }
    if (!csv) throw new AppError('VALIDATION_ERROR', 'No file received in the multipart field "file"', { fields: { file: ['is required'] } });
    const r = await services.bulk.upload(req.auth, csv, req.query.dryRun ?? false);
    return reply.status(r.statusCode as 200).send(r.body);
  });
};
