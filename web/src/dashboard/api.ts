/**
 * The dashboard's API access: the typed client generated from Herald's OpenAPI document
 * (openapi-fetch over web/src/api/schema.d.ts) plus the session routes. Requests carry the
 * session cookie (same origin); every state-changing request adds the session's CSRF token.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../api/schema';

export type Paths = paths;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type PostView = Json<paths['/v1/posts/{postId}']['get']['responses'][200]>['post'];
export type PostTarget = PostView['platforms'][number];
/** A queue of a profile (decision 0062), as GET /v1/queue/slots?all=true lists it. */
export type QueueView = Extract<Json<paths['/v1/queue/slots']['get']['responses'][200]>, { queues: unknown }>['queues'][number];
export type Profile = Json<paths['/v1/profiles']['get']['responses'][200]>['profiles'][number];
export type Account = Json<paths['/v1/accounts']['get']['responses'][200]>['accounts'][number];
export type ApiKey = Json<paths['/v1/api-keys']['get']['responses'][200]>['apiKeys'][number];
export type UsageStats = Json<paths['/v1/usage-stats']['get']['responses'][200]>;
export type CreatePostBody = NonNullable<paths['/v1/posts']['post']['requestBody']>['content']['application/json'];
export type PostStatus = PostView['status'];
export type CreateKeyBody = NonNullable<paths['/v1/api-keys']['post']['requestBody']>['content']['application/json'];

export interface SessionUser { _id: string; email: string; name: string; isRoot: boolean; role: string; profileAccess: 'all' | 'profiles' }
export interface Session { user: SessionUser; csrfToken: string; expiresAt: string }

/** An error answer of the API, in its one shape (`{ error, code, details, requestId }`). */
export class ApiError extends Error {
  constructor(public readonly status: number, message: string, public readonly code: string, public readonly fields: Record<string, string[]> = {}, public readonly requestId?: string) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

export function setSessionHandlers(token: string | null, unauthorized: (() => void) | null): void {
  csrfToken = token;
  onUnauthorized = unauthorized;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

function withCsrf(headers: Headers, method: string): void {
  if (!SAFE.has(method.toUpperCase()) && csrfToken) headers.set('X-CSRF-Token', csrfToken);
}

const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    withCsrf(request.headers, request.method);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) onUnauthorized?.();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '/', credentials: 'same-origin' });
api.use(sessionMiddleware);

async function toApiError(res: Response): Promise<ApiError> {
  let body: { error?: string; code?: string; details?: { fields?: Record<string, string[]> }; requestId?: string } = {};
  try { body = await res.json(); } catch { /* not JSON */ }
  return new ApiError(res.status, body.error ?? `${res.status} ${res.statusText}`, body.code ?? 'ERROR', body.details?.fields ?? {}, body.requestId);
}

/** Unwraps an openapi-fetch result: the data, or throws {@link ApiError}. */
export async function unwrap<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (error !== undefined || !response.ok) {
    const e = (error ?? {}) as { error?: string; code?: string; details?: { fields?: Record<string, string[]> }; requestId?: string };
    throw new ApiError(response.status, e.error ?? `${response.status} ${response.statusText}`, e.code ?? 'ERROR', e.details?.fields ?? {}, e.requestId);
  }
  return data as T;
}

/**
 * A call outside the generated types: the routes outside /v1 that the OpenAPI document does not
 * describe (the session routes /auth/*, the OAuth consent /oauth/consent), and the account
 * resources an account card calls at the paths of its platform's entry in the shared table
 * (src/shared/account-card.ts: paths as data, each checked against the platform's contract by
 * test/web/account-card.test.ts). Every other /v1 route goes through {@link api}. Same cookie, CSRF
 * and error handling.
 */
export async function rawRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers = new Headers({ accept: 'application/json' });
  if (body !== undefined) headers.set('content-type', 'application/json');
  withCsrf(headers, method);
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', redirect: 'manual' });
  if (res.type === 'opaqueredirect') throw new ApiError(302, 'The server answered with a redirect', 'REDIRECT');
  if (res.status === 401 && !url.startsWith('/auth/')) onUnauthorized?.();
  if (!res.ok) throw await toApiError(res);
  return (await res.json()) as T;
}

/**
 * POSTs a multipart form (e.g. a CSV file) with the session's CSRF token; answers the JSON
 * body, or throws {@link ApiError}. `isResult` says which error answers are results all the
 * same (the bulk upload answers 400 with its per-row table when no row is valid).
 */
export async function postForm<T>(url: string, form: FormData, isResult: (body: unknown) => boolean = () => false): Promise<{ status: number; body: T }> {
  const headers = new Headers({ accept: 'application/json' });
  withCsrf(headers, 'POST');
  const res = await fetch(url, { method: 'POST', headers, body: form, credentials: 'same-origin' });
  if (res.status === 401) onUnauthorized?.();
  if (!res.ok) {
    const body: unknown = await res.clone().json().catch(() => null);
    if (body && isResult(body)) return { status: res.status, body: body as T };
    throw await toApiError(res);
  }
  return { status: res.status, body: (await res.json()) as T };
}

// rawRequest: the session routes (/auth/session, /auth/login, /auth/logout) are outside /v1, not in the OpenAPI document.
export const sessionApi = {
  current: () => rawRequest<Session>('GET', '/auth/session'),
  login: (email: string, password: string) => rawRequest<Session>('POST', '/auth/login', { email, password }),
  logout: () => rawRequest<{ message: string }>('POST', '/auth/logout'),
};

export interface UploadedFile {
  type: 'image' | 'video' | 'gif' | 'document'; url: string; filename: string; size: number; mimeType: string;
  /** The bytes were already in the library: this is that file (uploads are deduplicated). */
  deduplicated?: boolean;
}

/** Files up to this size go as multipart; larger ones use the resumable client-upload flow (up to 5 GB). */
export const MULTIPART_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Uploads one file with progress: multipart POST /v1/media for small files; for larger ones
 * the client-upload flow (POST /v1/media with JSON returns an upload token and URL; the bytes
 * go there with the tus resumable protocol, in 8 MB chunks, retried on network errors).
 */
export function uploadMedia(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  return file.size > MULTIPART_MAX_BYTES ? uploadLarge(file, onProgress, signal) : uploadSmall(file, onProgress, signal);
}

async function uploadLarge(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  const ticket = await unwrap(api.POST('/v1/media', { body: { filename: file.name, contentType: file.type || 'application/octet-stream', size: file.size } }));
  // A JSON body starts a client upload (201 with the tus ticket); 200 `{ files }` is the multipart answer.
  if (!('uploadUrl' in ticket)) throw new ApiError(0, 'The server did not start a client upload', 'UPLOAD_FAILED');
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      uploadUrl: ticket.uploadUrl,
      headers: { Authorization: `Bearer ${ticket.token}` },
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      onProgress: (sent, total) => onProgress(total ? sent / total : 0),
      onError: (err) => {
        const res = (err as { originalResponse?: { getStatus(): number; getBody(): string } }).originalResponse;
        let body: { error?: string; code?: string } = {};
        try { body = res ? JSON.parse(res.getBody()) : {}; } catch { /* not JSON */ }
        reject(new ApiError(res?.getStatus() ?? 0, body.error ?? err.message, body.code ?? 'UPLOAD_FAILED'));
      },
      onSuccess: (payload) => {
        try {
          const body = JSON.parse(payload.lastResponse.getBody()) as { files?: UploadedFile[] };
          if (!body.files?.[0]) throw new Error('no file in the answer');
          onProgress(1);
          resolve(body.files[0]);
        } catch (err) {
          reject(new ApiError(0, `Upload finished but the answer was unreadable: ${(err as Error).message}`, 'UPLOAD_FAILED'));
        }
      },
    });
    signal?.addEventListener('abort', () => { void upload.abort(true); reject(new ApiError(0, 'Upload cancelled', 'ABORTED')); });
    upload.start();
  });
}

function uploadSmall(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // XMLHttpRequest, not the typed client: a multipart upload that reports its progress (fetch cannot).
    xhr.open('POST', '/v1/media');
    if (csrfToken) xhr.setRequestHeader('X-CSRF-Token', csrfToken);
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(e.loaded / e.total); };
    xhr.onload = () => {
      let body: { files?: UploadedFile[]; error?: string; code?: string; details?: { fields?: Record<string, string[]> } } = {};
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300 && body.files?.[0]) { onProgress(1); resolve(body.files[0]); }
      else reject(new ApiError(xhr.status, body.error ?? `Upload failed (${xhr.status})`, body.code ?? 'ERROR', body.details?.fields ?? {}));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error during the upload', 'NETWORK'));
    xhr.onabort = () => reject(new ApiError(0, 'Upload cancelled', 'ABORTED'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('files', file, file.name);
    xhr.send(form);
  });
}
