import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { malformedMultipart } from '../../route-kit/multipart.ts';
import { errors, Id, Pagination } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { ALLOWED_CONTENT_TYPES } from './content-types.ts';
import type { UploadedFile } from './service.ts';

/** Multipart files up to about 4 MB each; larger files use the client-upload flow (docs/decisions/0009). */
export const MULTIPART_MAX_BYTES = 4 * 1024 * 1024;
const MAX_FILES = 10;

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE',
  `Request Entity Too Large: multipart uploads are limited to about 4 MB per file. Use the client-upload flow for larger files (up to 5GB): POST /v1/media with a JSON body to get a direct upload URL.`,
  { limitBytes: MULTIPART_MAX_BYTES, flow: 'client-upload' });

export const UploadedFileSchema = Type.Object({
  type: Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('gif'), Type.Literal('document')]),
  url: Type.String(),
  filename: Type.String(),
  size: Type.Integer({ description: 'Bytes' }),
  mimeType: Type.String(),
  deduplicated: Type.Optional(Type.Boolean({ description: 'true when these bytes were already in the library: the answer is that file (its url), no second copy was stored' })),
});

/** Body of POST /v1/media/from-url. */
export const MediaFromUrlBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 4096, description: 'http(s) URL of the file; Herald downloads it (public addresses only, redirects followed and checked)' }),
  filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'File name to keep (default: the URL\'s last path segment)' })),
}, { additionalProperties: false });

/** One file of the media library (GET /v1/media). */
const LibraryFileSchema = Type.Object({
  _id: Type.String(), ...UploadedFileSchema.properties,
  width: Type.Optional(Type.Integer({ description: 'Pixels (images and videos)' })),
  height: Type.Optional(Type.Integer({ description: 'Pixels (images and videos)' })),
  durationSeconds: Type.Optional(Type.Number({ description: 'Seconds (videos, animated GIFs)' })),
  tags: Type.Array(Type.String(), { description: 'The library\'s tags (PATCH /v1/media/{mediaId})' }),
  usedInPosts: Type.Optional(Type.Integer({ description: 'How many posts name this file in their media items' })),
  createdAt: Type.String({ format: 'date-time' }),
});

const MediaParams = Type.Object({ mediaId: Id('Media file id (`_id` of GET /v1/media)') });

const ClientUploadRequest = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: 255, description: 'Original file name (kept as the media file\'s filename)' }),
  contentType: Type.String({ minLength: 1, maxLength: 100, description: `One of: ${ALLOWED_CONTENT_TYPES.join(', ')}. Checked against the file's bytes after the upload.` }),
  size: Type.Integer({ minimum: 1, description: 'Exact size in bytes; at most 5GB (5368709120). The upload must be exactly this long.' }),
}, { additionalProperties: false });

export const UploadStatus = Type.Union([
  Type.Literal('pending'), Type.Literal('uploading'), Type.Literal('processing'), Type.Literal('completed'),
  Type.Literal('failed'), Type.Literal('cancelled'), Type.Literal('expired'),
]);

const ClientUploadTicketSchema = Type.Object({
  uploadId: Type.String(),
  token: Type.String({ description: 'Upload token for the upload URL only (not an API key). Send it as "Authorization: Bearer <token>". Shown once.' }),
  uploadUrl: Type.String({ description: 'tus 1.0.0 upload resource: HEAD (offset), PATCH (bytes), GET (status and files), DELETE (cancel)' }),
  expiresAt: Type.String({ format: 'date-time', description: 'New requests with the token are refused after this instant' }),
  status: UploadStatus,
  protocol: Type.Literal('tus'),
  tusVersion: Type.Literal('1.0.0'),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ description: 'Bytes' }),
});

const MEDIA_DESCRIPTION = `Two ways to upload; both end with the same \`files\` entries (type, url, filename, size in bytes, mimeType).

**Small files (up to about 4 MB each): multipart.** Send \`multipart/form-data\` with one or more parts in the field \`files\`. The answer is 200 \`{ files: [...] }\`. A larger part answers 413 pointing to the client-upload flow.

**Any file up to 5GB: the client-upload flow (resumable, tus 1.0.0).**
1. \`POST /v1/media\` with JSON \`{ "filename": "clip.mp4", "contentType": "video/mp4", "size": 734003200 }\` (API key with media:write). The answer is 201 \`{ uploadId, token, uploadUrl, expiresAt, status: "pending", protocol: "tus", ... }\`. Over 5GB: 413 \`{ error: "File \\"clip.mp4\\" is too large (6.2GB). Maximum supported size is 5GB.", maxSize: "5GB", code: "file-too-large" }\`. A type outside the allow-list: 415 asking to set a valid contentType.
2. Send the bytes to \`uploadUrl\` with the tus protocol, authorised by the token (not the API key): \`PATCH uploadUrl\` with \`Authorization: Bearer <token>\`, \`Tus-Resumable: 1.0.0\`, \`Upload-Offset: <bytes already sent>\` and \`Content-Type: application/offset+octet-stream\`, in one request or in chunks. After an interruption, \`HEAD uploadUrl\` (same headers) answers \`Upload-Offset\`; continue from there. Any tus client works (tus-js-client: \`new Upload(file, { uploadUrl, headers: { Authorization: 'Bearer ' + token } })\`). The upload was created with the declared size: bytes beyond it are refused.
3. The PATCH that delivers the last byte answers 200 \`{ files: [ { type, url, filename, size, mimeType } ] }\` once the bytes were checked against the declared contentType (magic bytes), probed (duration, width, height, codecs) and stored. If the bytes are not the declared type, it answers 415 and the upload is deleted. \`GET uploadUrl\` (same token) answers \`{ uploadId, status, offset, size, expiresAt, files?, error? }\` at any time, e.g. when the final response was lost; \`DELETE uploadUrl\` cancels.

The token is valid for one upload of the declared size and type, for one hour by default (HERALD_UPLOAD_TOKEN_TTL); a request started before the expiry may finish.`;

export const mediaRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'media' | 'presign'> }> = async (app, { services }) => {
  await app.register(multipart, { limits: { fileSize: MULTIPART_MAX_BYTES, files: MAX_FILES, fields: 20, parts: 40 } });

  app.get('/media', {
    config: { permission: 'media:read' },
    schema: {
      tags: ['Media'], summary: 'List uploaded media (the media library)',
      description: 'The files uploaded to this account (both upload flows), newest first, paged. `q` searches the file names and tags (case-insensitive); `type` keeps one kind; `tag` one tag. Each file can be reused in `mediaItems` as it is; `usedInPosts` counts the posts naming it. Uploads are deduplicated by content: uploading bytes already stored answers the stored file (its URL) instead of a second copy.',
      querystring: Type.Object({
        page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100' })),
        q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the file name' })),
        type: Type.Optional(UploadedFileSchema.properties.type),
        tag: Type.Optional(Type.String({ maxLength: 100, description: 'Only files with this tag' })),
      }),
      response: {
        200: Type.Object({ files: Type.Array(LibraryFileSchema), pagination: Pagination }),
        ...errors(),
      },
    },
  }, async (req) => {
    // S3 presigned uploads that arrived since become library files first (decision 0066); the bucket
    // being unreachable delays that (the worker's cleanup tries again), never the listing.
    await services.presign.confirmS3(req.auth.tenantId).catch((err: unknown) => req.log.warn({ err }, 'checking presigned uploads failed'));
    return services.media.list(req.auth, req.query);
  });

  app.get('/media/:mediaId', {
    config: { permission: 'media:read' },
    schema: {
      tags: ['Media'], summary: 'One media library file and the posts using it (Herald extension)', params: MediaParams,
      response: {
        200: Type.Object({
          file: LibraryFileSchema,
          usedBy: Type.Array(Type.Object({
            _id: Type.String(), content: Type.String(), status: Type.String(), scheduledFor: Type.Optional(Type.String({ format: 'date-time' })),
          }), { description: 'Posts naming the file in their media items, newest first (at most 50)' }),
        }),
        ...errors(),
      },
    },
  }, async (req) => services.media.get(req.auth, req.params.mediaId));

  app.patch('/media/:mediaId', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Set a media library file\'s tags (Herald extension)', params: MediaParams,
      body: Type.Object({ tags: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ file: LibraryFileSchema }), ...errors() },
    },
  }, async (req) => services.media.setTags(req.auth, req.params.mediaId, req.body.tags));

  app.delete('/media/:mediaId', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Delete a media library file (Herald extension)',
      description: 'Deletes the file and its stored bytes. A file that posts use is refused (409, `usedInPosts`) unless `force=true`: those posts keep its URL, which then no longer answers.',
      params: MediaParams,
      querystring: Type.Object({ force: Type.Optional(Type.Boolean({ default: false })) }),
      response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(409) },
    },
  }, async (req) => {
    await services.media.remove(req.auth, req.params.mediaId, { force: req.query.force });
    return { success: true };
  });

  app.post('/media/:mediaId/convert', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Convert an image to JPEG (Herald extension)',
      description: 'Instagram publishes JPEG images only. This stores a JPEG copy of a PNG or WebP image (transparency flattened onto white, EXIF orientation applied) as a new library file named `<name>.jpg` and answers it like an upload, '
        + '200 `{ files: [ { type, url, filename, size, mimeType } ], converted: true, from }`; use its `url` in `mediaItems` instead of the original. '
        + 'A JPEG answers itself with `converted: false`. Other types answer 415; images over 50 MB 413. The original stays in the library.',
      params: MediaParams,
      body: Type.Object({ format: Type.Literal('jpeg', { description: 'Target format; only "jpeg"' }) }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          files: Type.Array(Type.Object({ _id: Type.String(), ...UploadedFileSchema.properties })),
          converted: Type.Boolean({ description: 'false when the file already was a JPEG' }),
          from: Type.String({ description: 'The original\'s MIME type' }),
        }),
        ...errors(413, 415),
      },
    },
  }, async (req) => {
    const r = await services.media.convert(req.auth, req.params.mediaId, req.body);
    return { ...r, files: r.files.map(({ id, type, url, filename, size, mimeType }) => ({ _id: id ?? req.params.mediaId, type, url, filename, size, mimeType })) };
  });

  app.post('/media/from-url', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Upload media from a URL (Herald extension)',
      description: 'Herald downloads the file at `url` and stores it like an upload: the same limits (5GB; one of the allowed types, checked on the file\'s bytes) '
        + 'and the same answer as a multipart upload, 200 `{ files: [ { type, url, filename, size, mimeType } ] }`. Only http(s) URLs of public addresses '
        + 'are fetched (every redirect is checked the same way); a refused or unreachable URL answers 400 naming `url`, a larger file 413, '
        + 'bytes of a type outside the allow-list 415.',
      body: MediaFromUrlBody,
      response: { 200: Type.Object({ files: Type.Array(UploadedFileSchema) }, { description: 'Downloaded and stored' }), ...errors(413, 415) },
    },
  }, async (req) => {
    const { type, url, filename, size, mimeType, deduped } = await services.media.storeFromUrl(req.auth, req.body);
    return { files: [{ type, url, filename, size, mimeType, ...(deduped ? { deduplicated: true } : {}) }] };
  });

  app.post('/media', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Media'], summary: 'Upload media: multipart for small files, or start a client upload (JSON) for files up to 5GB',
      description: MEDIA_DESCRIPTION,
      body: {
        content: {
          'application/json': { schema: ClientUploadRequest },
          // For the document: the parts are streamed and checked in the handler (preValidation gives the schema an empty object).
          'multipart/form-data': { schema: Type.Object({ files: Type.Optional(Type.Array(Type.String({ format: 'binary' }), { description: 'One or more files, about 4 MB each at most' })) }) },
        },
      },
      response: {
        200: Type.Object({ files: Type.Array(UploadedFileSchema) }, { description: 'Multipart upload stored' }),
        201: Type.Object(ClientUploadTicketSchema.properties, { description: 'Client upload started: send the bytes to uploadUrl' }),
        ...errors(413, 415),
      },
    },
    preValidation: async (req) => {
      // A multipart body is not parsed up front (the parts stream in the handler): validate an empty object instead.
      if (req.isMultipart()) req.body = {};
    },
  }, async (req, reply) => {
    if (!req.isMultipart()) {
      const ct = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (ct !== 'application/json' || req.body === null || typeof req.body !== 'object') {
        throw new AppError('VALIDATION_ERROR', 'Send either multipart/form-data with the files in the field "files" (up to about 4 MB each), or JSON { filename, contentType, size } to start a client upload (up to 5GB)', {
          fields: { '(body)': ['must be multipart/form-data (field "files") or a JSON object { filename, contentType, size }'] },
        });
      }
      const body = req.body as { filename: string; contentType: string; size: number };
      const ticket = await services.media.createClientUpload(req.auth, body);
      reply.header('location', ticket.uploadUrl);
      return reply.status(201).send(ticket);
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
      await services.media.discard(req.auth, files.filter((f): f is typeof f & { id: string; storageKey: string } => !!f.id && !!f.storageKey && !f.deduped));
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'PAYLOAD_TOO_LARGE') throw tooLarge();
      if (code === 'FST_FILES_LIMIT') throw new AppError('VALIDATION_ERROR', `At most ${MAX_FILES} files per request`, { fields: { files: [`at most ${MAX_FILES} files per request`] } });
      throw malformedMultipart(err) ?? err;
    }
    if (files.length === 0) throw new AppError('VALIDATION_ERROR', 'No file received in the multipart field "files"', { fields: { files: ['is required'] } });
    return { files: files.map(({ type, url, filename, size, mimeType, deduped }) => ({ type, url, filename, size, mimeType, ...(deduped ? { deduplicated: true } : {}) })) };
  });
};
