/**
 * The media storage contract shared by the backends (./media-storage.ts: local disk and the
 * factory; ./s3-storage.ts: S3-compatible): what a backend stores and answers, the error it
 * raises when a stored file cannot be read, and the media type of a key. Both backends import
 * this file; neither imports the other's module for it.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** A stored file: its storage key, size in bytes and the URL clients use. */
export interface StoredObject {
  key: string;
  size: number;
  url: string;
}

/**
 * One media storage backend. Keys look like `<tenantId>/<mediaId>/<128 random bits, hex>-<name>.<ext>`
 * (no `..`, no leading slash; the random part keeps public media URLs unguessable).
 */
export interface MediaStorage {
  /** `local` or `s3`, for logs and health output. */
  readonly kind: 'local' | 's3';
  /** Writes `body` under `key`, streaming. @throws when the stream fails; nothing partial stays stored. */
  put(key: string, body: Readable, contentType: string): Promise<StoredObject>;
  /**
   * Moves a local file (a staged upload, any size) into storage under `key` and removes
   * the local file: a rename on local disk, a streamed multipart upload on S3.
   * @throws when the transfer fails (the local file is then left in place for the caller to remove).
   */
  putFile(key: string, file: string, contentType: string): Promise<StoredObject>;
  /** Removes a stored key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** URL of a stored key for clients and platforms: a Herald URL, the bucket's public URL, or a presigned GET URL. */
  urlFor(key: string): Promise<string>;
  /** Reads a file by its URL when the URL is one of ours; null for foreign URLs. @throws when larger than maxBytes. */
  readByUrl(url: string, maxBytes: number): Promise<{ bytes: Buffer; mimeType: string } | null>;
  /**
   * A URL a client PUTs the file to directly, without Herald in between (S3: a SigV4 presigned
   * PutObject URL with `contentType`, and `contentLength` when given, signed in, valid
   * `expiresInSeconds`). Absent on local disk, where Herald serves the PUT itself.
   */
  presignPut?(key: string, opts: { contentType: string; contentLength?: number; expiresInSeconds: number }): Promise<string>;
  /**
   * Copies a stored key to a local file (streamed) when it exists and is at most `maxBytes`;
   * `null` when nothing is stored under the key. @throws MediaReadError when it is larger.
   */
  fetchToFile?(key: string, file: string, maxBytes: number): Promise<{ size: number; contentType: string; etag: string } | null>;
  /** The size, type and ETag stored under a key (a HEAD); `null` when nothing is stored there. */
  statKey?(key: string): Promise<{ size: number; contentType: string; etag: string } | null>;
  /** Registers routes that serve the files, when the backend serves them itself. */
  registerRoutes?(app: FastifyInstance): Promise<void>;
}

/**
 * A media file Herald stores could not be read for publishing. The message is safe to show
 * to users (post target errors): it never names a server path.
 */
export class MediaReadError extends Error {
  override readonly name = 'MediaReadError';
}

const MIME_BY_EXT: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif',
  '.mp4': 'video/mp4', '.m4v': 'video/x-m4v', '.mov': 'video/quicktime', '.mpeg': 'video/mpeg', '.mpg': 'video/mpeg',
  '.avi': 'video/x-msvideo', '.webm': 'video/webm', '.pdf': 'application/pdf',
};

/** The media type implied by a storage key's extension (keys carry the checked type's extension). */
export function mimeTypeOfKey(key: string): string {
  return MIME_BY_EXT[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}
