import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import type { UploadedFile } from './service.ts';

/** Multipart files up to about 4 MB each (spec.md section 5); larger files use the client-upload flow. */
export const MULTIPART_MAX_BYTES = 4 * 1024 * 1024;
const MAX_FILES = 10;

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE',
  `Request Entity Too Large: multipart uploads are limited to about 4 MB per file. Use the client-upload flow for larger files (up to 5GB): POST /v1/media with a JSON body to get a direct upload URL.`,
  { limitBytes: MULTIPART_MAX_BYTES, flow: 'client-upload' });

const UploadedFileSchema = Type.Object({
  type: Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('gif'), Type.Literal('document')]),
  url: Type.String(),
  filename: Type.String(),
  size: Type.Integer({ description: 'Bytes' }),
  mimeType: Type.String(),
});

export const mediaRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  await app.register(multipart, { limits: { fileSize: MULTIPART_MAX_BYTES, files: MAX_FILES, fields: 20, parts: 40 } });

  app.post('/media', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Upload media files (multipart field "files", up to about 4 MB each)',
      consumes: ['multipart/form-data'],
      response: { 200: Type.Object({ files: Type.Array(UploadedFileSchema) }), ...errors(413, 415) },
    },
  }, async (req) => {
    if (!req.isMultipart()) {
      throw new AppError('BAD_REQUEST', 'Send the files as multipart/form-data in the field "files". The client-upload flow for large files is not available on this server yet.', { fields: { files: ['is required (multipart/form-data)'] } });
    }
    const files: UploadedFile[] = [];
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'files' && part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError('VALIDATION_ERROR', `Unexpected file field "${part.fieldname}"; use "files"`, { fields: { [part.fieldname]: ['is not a file field; use "files"'] } });
        }
        files.push(await services.media.storeUpload(req.auth, { filename: part.filename, declaredType: part.mimetype, stream: part.file }));
      }
    } catch (err) {
      // All or nothing: a request that fails keeps none of its files.
      await services.media.discard(req.auth, files.filter((f): f is typeof f & { id: string; storageKey: string } => !!f.id && !!f.storageKey));
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'PAYLOAD_TOO_LARGE') throw tooLarge();
      if (code === 'FST_FILES_LIMIT') throw new AppError('VALIDATION_ERROR', `At most ${MAX_FILES} files per request`, { fields: { files: [`at most ${MAX_FILES} files per request`] } });
      throw err;
    }
    if (files.length === 0) throw new AppError('VALIDATION_ERROR', 'No file received in the multipart field "files"', { fields: { files: ['is required'] } });
    return { files: files.map(({ type, url, filename, size, mimeType }) => ({ type, url, filename, size, mimeType })) };
  });
};
