/**
 * Routes of presigned uploads and temporary files (docs/decisions/0066-presigned-uploads.md):
 *   - POST /v1/media/presign        (media:write) -> 200 { uploadUrl, publicUrl, key, expiresIn: 3600, type };
 *   - POST /v1/media/upload-direct  (media:write, multipart `file`, 25 MB) -> 200 { url, filename, contentType, size };
 *   - PUT  /uploads/presigned/:uploadId?token=... (outside /v1, local storage: the URL's token is the
 *     credential, never an API key) -> 200 { files: [ { type, url, filename, size, mimeType } ] }.
 * The official client calls the first two `getMediaPresignedUrl` and `uploadMediaDirect`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { malformedMultipart } from '../../route-kit/multipart.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { ALLOWED_CONTENT_TYPES } from './content-types.ts';
import { DIRECT_UPLOAD_MAX_BYTES, PRESIGN_EXPIRES_SECONDS, type MultipartPart } from './presign.ts';
import { UploadedFileSchema } from './routes.ts';

const PresignBody = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: 255, description: 'Name of the file to upload (kept as the media file\'s filename)' }),
  contentType: Type.String({ minLength: 1, maxLength: 100, description: `One of: ${ALLOWED_CONTENT_TYPES.join(', ')}. The PUT must send exactly this Content-Type, and the bytes must be this type.` }),
  size: Type.Optional(Type.Integer({ minimum: 1, description: 'Optional file size in bytes (at most 5GB, 5368709120): the PUT may not be larger' })),
}, { additionalProperties: false });

const PresignAnswer = Type.Object({
  uploadUrl: Type.String({ description: `URL to PUT the whole file to, with Content-Type: <contentType> (expires in ${PRESIGN_EXPIRES_SECONDS / 3600} hour; one file per URL)` }),
  publicUrl: Type.String({ description: 'The file\'s URL once uploaded: use it in mediaItems[].url' }),
  key: Type.String({ description: 'Storage key of the file: <userId>/<uploadId>/<random>-<name>.<ext>' }),
  expiresIn: Type.Integer({ description: `Seconds until uploadUrl expires (always ${PRESIGN_EXPIRES_SECONDS})` }),
  type: Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('gif'), Type.Literal('document')], { description: 'The kind of media, from contentType (mediaItems[].type)' }),
});

const TempFileAnswer = Type.Object({
  url: Type.String({ description: 'Public URL of the temporary file (deleted 7 days after the upload)' }),
  filename: Type.String({ description: 'Generated unique file name' }),
  contentType: Type.String({ description: 'MIME type of the file, checked on its bytes' }),
  size: Type.Integer({ description: 'Bytes' }),
});

const PRESIGN_DESCRIPTION = `Answers a URL to upload one file with a single \`PUT\` (no multipart, no API key on the upload), and the URL the file will have.
1. \`POST /v1/media/presign\` with \`{ "filename": "clip.mp4", "contentType": "video/mp4", "size": 73400320 }\` (\`size\` optional). The answer: \`{ uploadUrl, publicUrl, key, expiresIn: 3600, type }\`.
2. \`PUT uploadUrl\` with the file as the body and \`Content-Type: video/mp4\` (exactly the \`contentType\` sent in step 1), within the hour. It answers 200.
3. Use \`publicUrl\` in a post's \`mediaItems\`.

On Herald's own storage the PUT is checked as it arrives: another Content-Type, bytes of another type (magic bytes) or more bytes than \`size\` (else 5GB) are refused (415, 415, 413) and nothing is stored; a used URL answers 409, an expired one 401. The file then is in the media library (\`GET /v1/media\`) like any upload; it is never deduplicated, so \`publicUrl\` is always the file's URL.
With S3 storage (HERALD_STORAGE=s3) \`uploadUrl\` is an S3 presigned PUT URL with the Content-Type (and Content-Length when \`size\` is given) signed in: S3 refuses another one (403). Herald checks the bytes when it records the file in the library (at the next \`GET /v1/media\`, or by the worker's cleanup after the URL expired); a file that is not the declared type is deleted then.
A type outside the allow-list answers 415; \`size\` over 5GB 413.`;

const DIRECT_DESCRIPTION = `Uploads one file of at most 25MB as \`multipart/form-data\` in the field \`file\` (optional field \`contentType\` overrides the part's type) and answers its public URL: \`{ url, filename, contentType, size }\`.
The file is **temporary**: it is not listed in the media library and is deleted 7 days after the upload, so schedule posts using it within that time (for longer, use \`POST /v1/media\` or \`POST /v1/media/presign\`). One of the allowed types, checked on the bytes (415 otherwise); a larger file answers 413.`;

/** POST /v1/media/presign and POST /v1/media/upload-direct (registered under /v1). */
export const mediaPresignRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'presign'> }> = async (app, { services }) => {
  await app.register(multipart, { limits: { fileSize: DIRECT_UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 10 } });

  app.post('/media/presign', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Get a presigned URL to upload a file with one PUT', description: PRESIGN_DESCRIPTION,
      body: PresignBody,
      response: { 200: PresignAnswer, ...errors(413, 415) },
    },
  }, async (req) => services.presign.presign(req.auth, req.body));

  app.post('/media/upload-direct', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Upload a temporary file (25MB, deleted after 7 days)', description: DIRECT_DESCRIPTION,
      consumes: ['multipart/form-data'],
      body: Type.Object({
        file: Type.Optional(Type.String({ format: 'binary', description: 'The file (at most 25MB)' })),
        contentType: Type.Optional(Type.String({ description: 'Override of the MIME type (else the part\'s, or detected from the bytes)' })),
      }),
      response: { 200: TempFileAnswer, ...errors(413, 415) },
    },
    preValidation: async (req) => {
      // The parts stream in the handler: validate an empty object instead.
      if (req.isMultipart()) req.body = {};
    },
  }, async (req) => {
    if (!req.isMultipart()) {
      throw new AppError('VALIDATION_ERROR', 'Send multipart/form-data with the file in the field "file" (at most 25MB)', { fields: { '(body)': ['must be multipart/form-data with the field "file"'] } });
    }
    try {
      return await services.presign.storeTemporary(req.auth, req.parts() as AsyncIterable<MultipartPart>);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 25 MB', { limitBytes: DIRECT_UPLOAD_MAX_BYTES });
      if (code === 'FST_FILES_LIMIT') throw new AppError('VALIDATION_ERROR', 'One file per request', { fields: { file: ['one file per request'] } });
      throw malformedMultipart(err) ?? err;
    }
  });
};

const PutParams = Type.Object({ uploadId: Type.String({ pattern: '^[0-9a-fA-F]{24}$', description: 'From the uploadUrl of POST /v1/media/presign' }) });
const PutQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200, description: 'The upload URL\'s single-use token (part of uploadUrl)' })) });

/** PUT /uploads/presigned/:uploadId: the presigned PUT on local storage (outside /v1; the URL's token authorises it). */
export const presignedPutRoutes: FastifyPluginAsync<{ services: Pick<Services, 'presign'> }> = async (app, { services }) => {
  // The body streams from the socket into staging: no parser reads it first, whatever its type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));
  app.addHook('onRequest', async (_request, reply) => {
    // Token auth (no cookies): browsers of any origin may PUT and read the answer.
    reply.header('access-control-allow-origin', '*');
  });
  // A PUT refused before its body was read (token, type, Content-Length): close the connection
  // rather than let Node read up to 5 GB just to keep it alive.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400 && !request.raw.readableEnded) reply.header('connection', 'close');
  });

  app.route({
    method: 'PUT', url: '/uploads/presigned/:uploadId',
    schema: {
      tags: ['Media'], summary: 'Upload the file of a presigned upload (the uploadUrl of POST /v1/media/presign)',
      description: 'The whole file as the body, with `Content-Type` exactly the contentType given to POST /v1/media/presign. Authorised by the token in the URL (single use, one hour), not by an API key.',
      params: PutParams, querystring: PutQuery, security: [],
      response: { 200: Type.Object({ files: Type.Array(UploadedFileSchema) }, { description: 'Stored; the file is at the publicUrl of the presign answer' }), ...errors(409, 410, 413, 415) },
    },
    handler: async (request) => {
      const { uploadId } = request.params as { uploadId: string };
      const { token } = request.query as { token?: string };
      const length = request.headers['content-length'];
      const file = await services.presign.receivePut(uploadId.toLowerCase(), token, {
        contentType: request.headers['content-type'], contentLength: length !== undefined ? Number(length) : undefined, body: request.raw,
      });
      const { type, url, filename, size, mimeType } = file;
      return { files: [{ type, url, filename, size, mimeType }] };
    },
  });

  app.route({
    method: 'OPTIONS', url: '/uploads/presigned/:uploadId',
    schema: { tags: ['Media'], summary: 'CORS preflight of the presigned PUT', params: PutParams, hide: true },
    handler: async (_request, reply) => reply
      .header('access-control-allow-methods', 'PUT, OPTIONS')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '3600')
      .status(204).send(),
  });
};
