/**
 * The client-upload endpoint `/uploads/:uploadId` (outside /v1: it is authorised by the
 * short-lived upload token from POST /v1/media, never by an API key).
 *
 * Speaks tus 1.0.0 (core + termination) through `@tus/server` 2.4 over the upload that
 * POST /v1/media created with the declared size:
 *   - HEAD    -> 200, `Upload-Offset` / `Upload-Length` (where to resume);
 *   - PATCH   -> 204 `Upload-Offset`, or for the PATCH that delivers the last byte
 *                200 `{ files: [{ type, url, filename, size, mimeType }] }` after the
 *                bytes were checked, probed and stored (415 and the upload deleted when the
 *                bytes are not the declared type);
 *   - GET     -> 200 `{ uploadId, status, offset, size, expiresAt, files?, error? }` (not tus);
 *   - DELETE  -> 204, cancels and deletes the staged bytes;
 *   - OPTIONS -> tus discovery and CORS preflight (no token).
 * Every error body is the API's `{ error, code, details?, requestId }` JSON.
 * The bytes stream from the socket to the staging file: nothing is buffered whole.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { EXPOSED_HEADERS, Server } from '@tus/server';
import { Type } from 'typebox';
import { AppError, ERROR_CODES } from '../../core/errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableError, errorBody } from '../../route-kit/error-body.ts';
import { isDatabaseUnavailable } from '../../storage/db.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { UploadedFileSchema, UploadStatus } from './routes.ts';
import { MAX_UPLOAD_BYTES, type UploadRow, type UploadedFile } from './service.ts';

const Params = Type.Object({ uploadId: Type.String({ pattern: '^[0-9a-fA-F]{24}$', description: 'uploadId from POST /v1/media' }) });
const TokenHeader = Type.Object({ authorization: Type.Optional(Type.String({ description: 'Bearer <upload token>' })) });

const UploadStateSchema = Type.Object({
  uploadId: Type.String(),
  status: UploadStatus,
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ description: 'Declared size, bytes' }),
  offset: Type.Integer({ description: 'Bytes received so far' }),
  expiresAt: Type.String({ format: 'date-time' }),
  files: Type.Optional(Type.Array(UploadedFileSchema, { description: 'Once completed: the same entry as a multipart upload' })),
  error: Type.Optional(Type.String()),
});

const codeForStatus = (status: number): string =>
  (Object.entries(ERROR_CODES).find(([, s]) => s === status)?.[0]) ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');

const publicEntry = ({ type, url, filename, size, mimeType, deduped }: UploadedFile) => ({ type, url, filename, size, mimeType, ...(deduped ? { deduplicated: true } : {}) });

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer', 'proxy-connection']);

export const mediaUploadRoutes: FastifyPluginAsync<{ services: Pick<Services, 'media'> }> = async (app, { services }) => {
  const media = services.media;
  /** The Fastify request behind each web Request handed to tus (for request ids in error bodies). */
  const origin = new WeakMap<Request, FastifyRequest>();

  const tus = new Server({
    path: '/uploads',
    datastore: media.datastore,
    maxSize: MAX_UPLOAD_BYTES,
    // Uploads are created by POST /v1/media only; the id is the last path segment.
    getFileIdFromRequest: (_req, lastPath) => (lastPath && /^[0-9a-f]{24}$/.test(lastPath) ? lastPath : undefined),
    disableTerminationForFinishedUploads: true,
    async onUploadFinish(req, upload) {
      const request = origin.get(req as unknown as Request);
      try {
        const file = await media.completeClientUpload(upload.id);
        return { status_code: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify({ files: [publicEntry(file)] }) };
      } catch (caught) {
        const body = (code: string, message: string, details?: Record<string, unknown>, extra?: Record<string, unknown>) =>
          JSON.stringify(request ? errorBody(request, code, message, details, extra) : { error: message, code, ...(details ? { details } : {}) });
        const err = isDatabaseUnavailable(caught) ? databaseUnavailableError(caught) : media.writeFailed(caught);
        if (err instanceof AppError) {
          if (err.status >= 500) request?.log.error({ err }, 'completing a client upload failed');
          throw { status_code: err.status, body: body(err.code, err.message, err.details, err.extra) };
        }
        request?.log.error({ err }, 'completing a client upload failed');
        throw { status_code: 500, body: body('INTERNAL_ERROR', 'Internal server error while storing the upload; send the final PATCH again (Upload-Offset = size, empty body) to retry. Quote the requestId when reporting it.') };
      }
    },
    // A PATCH whose bytes could not be staged for a full disk: 507 STORAGE_FULL in the API's error
    // shape. The bytes staged before it stay (the upload resumes from its offset once there is space;
    // the sweep of abandoned uploads removes them otherwise). Other errors keep tus's answer.
    async onResponseError(req, caught) {
      const err = media.writeFailed(caught);
      if (!(err instanceof AppError) || err.code !== 'STORAGE_FULL') return undefined;
      const request = origin.get(req as unknown as Request);
      request?.log.error({ err }, 'staging client upload bytes failed');
      return { status_code: err.status, body: JSON.stringify(request ? errorBody(request, err.code, err.message) : { error: err.message, code: err.code }) };
    },
  });

  /** Runs the request through tus (streaming a PATCH body from the socket); the answer is read whole (tus answers are tiny). */
  async function runTus(request: FastifyRequest): Promise<{ res: Response; text: string }> {
    const headers = new Headers();
    for (const [k, v] of Object.entries(request.headers)) {
      if (v === undefined || HOP_BY_HOP.has(k)) continue;
      for (const one of Array.isArray(v) ? v : [String(v)]) headers.append(k, one);
    }
    const body = request.method === 'PATCH' ? (Readable.toWeb(request.raw) as ReadableStream<Uint8Array>) : undefined;
    const webReq = new Request(`http://herald.invalid${request.url}`, { method: request.method, headers, body, duplex: 'half' } as RequestInit);
    origin.set(webReq, request);
    const res = await tus.handleWeb(webReq);
    return { res, text: res.body ? await res.text() : '' };
  }

  /** Sends a tus answer through Fastify; error bodies become the API's JSON error shape. */
  function sendTus(request: FastifyRequest, reply: FastifyReply, { res, text }: { res: Response; text: string }): FastifyReply {
    res.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-type' && !HOP_BY_HOP.has(name)) reply.header(name, value);
    });
    if (res.headers.get('connection') === 'close') reply.header('connection', 'close');
    reply.status(res.status);
    if (res.status >= 400) {
      let parsed: unknown = null;
      try { parsed = JSON.parse(text); } catch { /* tus's plain-text errors */ }
      const json = parsed && typeof parsed === 'object' && 'error' in parsed ? parsed : errorBody(request, codeForStatus(res.status), text.trim() || `HTTP ${res.status}`);
      if ((json as { code?: unknown }).code === 'DATABASE_UNAVAILABLE') reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
      return reply.type('application/json; charset=utf-8').send(json);
    }
    if (text) return reply.type('application/json; charset=utf-8').send(text);
    return reply.send();
  }

  const viaTus = async (request: FastifyRequest, reply: FastifyReply) => sendTus(request, reply, await runTus(request));

  const gone = (row: UploadRow) => new AppError('GONE', `The upload is ${row.status}${row.error ? `: ${row.error}` : ''}. Start a new upload with POST /v1/media.`, { status: row.status });

  // The bytes of a PATCH are read by tus from the raw request: Fastify must not parse them.
  app.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
  app.addHook('onRequest', async (request, reply) => {
    // Token auth (no cookies), so any origin may call; browsers need these to read errors too.
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.method !== 'GET' && request.method !== 'OPTIONS') reply.header('tus-resumable', '1.0.0');
  });

  const schema = (summary: string, extra: Record<string, unknown> = {}) => ({
    tags: ['Media'], summary, description: 'Authorised by the upload token from POST /v1/media (Authorization: Bearer <token>), not by an API key.', params: Params, headers: TokenHeader, security: [], ...extra,
  });
  const idOf = (request: FastifyRequest) => (request.params as { uploadId: string }).uploadId.toLowerCase();

  // HEAD before GET: Fastify would otherwise add its own HEAD for the GET route.
  app.route({
    method: 'HEAD', url: '/uploads/:uploadId',
    schema: schema('tus: bytes received so far (Upload-Offset) of a client upload', { response: { 200: Type.Null(), ...errors(410) } }),
    handler: async (request, reply) => {
      const row = await media.authorizeUpload(idOf(request), request.headers.authorization);
      if (row.status === 'completed' || row.status === 'processing') {
        return reply.header('upload-offset', row.size).header('upload-length', row.size).header('cache-control', 'no-store').send();
      }
      if (row.status !== 'pending' && row.status !== 'uploading') throw gone(row);
      return viaTus(request, reply);
    },
  });

  app.route({
    method: 'PATCH', url: '/uploads/:uploadId',
    schema: schema('tus: send bytes of a client upload (Content-Type: application/offset+octet-stream, Upload-Offset)', {
      consumes: ['application/offset+octet-stream'],
      response: { 200: Type.Object({ files: Type.Array(UploadedFileSchema) }, { description: 'The last byte arrived; the file is stored' }), 204: Type.Null(), ...errors(409, 410, 413, 415) },
    }),
    handler: async (request, reply) => {
      const id = idOf(request);
      const row = await media.authorizeUpload(id, request.headers.authorization);
      if (row.status === 'completed') {
        // A repeated final PATCH (its answer was lost): the same answer again.
        if (Number(request.headers['upload-offset']) !== Number(row.size)) throw new AppError('CONFLICT', `The upload is complete: Upload-Offset must be ${row.size}`);
        const state = await media.clientUploadState(row);
        return reply.status(200).send({ files: (state.files ?? []).map(publicEntry) });
      }
      if (row.status === 'processing') throw new AppError('CONFLICT', 'The upload is being processed; GET the upload URL for its status');
      if (row.status !== 'pending' && row.status !== 'uploading') throw gone(row);
      if (row.status === 'pending') await media.markUploading(id);
      return viaTus(request, reply);
    },
  });

  app.route({
    method: 'DELETE', url: '/uploads/:uploadId',
    schema: schema('tus: cancel a client upload and delete its bytes', { response: { 204: Type.Null(), ...errors(409) } }),
    handler: async (request, reply) => {
      const id = idOf(request);
      const row = await media.authorizeUpload(id, request.headers.authorization);
      if (row.status === 'completed' || row.status === 'processing') throw new AppError('CONFLICT', `The upload is ${row.status}; it can no longer be cancelled`);
      if (row.status !== 'pending' && row.status !== 'uploading') return reply.status(204).send();
      const answer = await runTus(request);
      if (answer.res.status === 204 || answer.res.status === 404 || answer.res.status === 410) await media.cancelClientUpload(id);
      return sendTus(request, reply, answer);
    },
  });

  app.route({
    method: 'OPTIONS', url: '/uploads/:uploadId',
    schema: { tags: ['Media'], summary: 'tus: protocol discovery and CORS preflight (no token)', params: Params, hide: true },
    handler: async (request, reply) => viaTus(request, reply),
  });

  app.get('/uploads/:uploadId', {
    schema: schema('Status of a client upload; its files entry once completed', { response: { 200: UploadStateSchema } }),
  }, async (request) => {
    const row = await media.authorizeUpload(idOf(request), request.headers.authorization, { allowExpired: true });
    const state = await media.clientUploadState(row);
    return { ...state, ...(state.files ? { files: state.files.map(publicEntry) } : {}) };
  });
};
