/**
 * S3-compatible media storage (AWS S3, MinIO, R2, Garage, ...): HERALD_STORAGE=s3.
 *
 * Writes stream through `@aws-sdk/lib-storage` multipart uploads (8 MiB parts, 4 in
 * flight: memory stays flat whatever the file size). Media URLs are either the bucket's
 * public base URL (HERALD_S3_PUBLIC_URL, e.g. a CDN) followed by the key, or presigned
 * SigV4 GET URLs valid for HERALD_S3_URL_EXPIRES seconds (at most 7 days). Herald's own
 * reads (`readByUrl`, for adapters) go through the SDK with the configured credentials,
 * so an expired presigned URL in a post is still readable by the publisher.
 */
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../config.ts';
import { MediaReadError, mimeTypeOfKey, type MediaStorage, type StoredObject } from './media-object.ts';

/** The `s3` branch of {@link StorageConfig}. */
export type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

function checkKey(key: string): string {
  if (!key || key.startsWith('/') || key.split('/').some((s) => s === '' || s === '.' || s === '..')) throw new Error(`invalid storage key ${key}`);
  return key;
}

/** Media files in one bucket of an S3-compatible service. */
export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly clock: () => Date;
  private presignedBase: string | null = null;

  /**
   * @param cfg bucket, endpoint, region, credentials, path style, public URL, URL lifetime
   * @param opts.clock the signing time of presigned URLs (tests pin it)
   */
  constructor(private readonly cfg: S3StorageConfig, opts: { clock?: () => Date } = {}) {
    this.clock = opts.clock ?? (() => new Date());
    const clientConfig: S3ClientConfig = {
      region: cfg.region,
      forcePathStyle: cfg.forcePathStyle,
      ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
      ...(cfg.credentials ? { credentials: cfg.credentials } : {}),
      // Checksums only when an operation requires them: several S3-compatible servers reject the newer default trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    this.client = new S3Client(clientConfig);
  }

  async put(key: string, body: Readable, contentType: string): Promise<StoredObject> {
    checkKey(key);
    let size = 0;
    const counter = new Transform({ transform(chunk: Buffer, _e, cb) { size += chunk.length; cb(null, chunk); } });
    body.on('error', (err) => counter.destroy(err));
    await this.upload(key, body.pipe(counter), contentType);
    return { key, size, url: await this.urlFor(key) };
  }

  async putFile(key: string, file: string, contentType: string): Promise<StoredObject> {
    checkKey(key);
    const { size } = await fs.promises.stat(file);
    await this.upload(key, fs.createReadStream(file), contentType);
    await fs.promises.rm(file, { force: true });
    return { key, size, url: await this.urlFor(key) };
  }

  private async upload(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.cfg.bucket, Key: key, Body: body, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: checkKey(key) }));
  }

  async urlFor(key: string): Promise<string> {
    if (this.cfg.publicUrl) return `${this.cfg.publicUrl}/${encodeKey(checkKey(key))}`;
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.cfg.bucket, Key: checkKey(key) }), {
      expiresIn: this.cfg.urlExpiresSeconds, signingDate: this.clock(),
    });
  }

  /**
   * A presigned PutObject URL for `key` (SigV4 query authentication, valid `expiresInSeconds`):
   * `Content-Type` is a signed header (the PUT must send exactly `contentType`), and so is
   * `Content-Length` when given (the PUT must be exactly that long). S3 refuses any other PUT with
   * 403 SignatureDoesNotMatch, or AccessDenied "Request has expired" after the lifetime
   * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/PresignedUrlUploadObject.html).
   */
  async presignPut(key: string, opts: { contentType: string; contentLength?: number; expiresInSeconds: number }): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.cfg.bucket, Key: checkKey(key), ContentType: opts.contentType,
      ...(opts.contentLength !== undefined ? { ContentLength: opts.contentLength } : {}),
    });
    return getSignedUrl(this.client, command, {
      expiresIn: opts.expiresInSeconds, signingDate: this.clock(),
      signableHeaders: new Set(['content-type', ...(opts.contentLength !== undefined ? ['content-length'] : [])]),
    });
  }

  /** HEAD of `key`: size (bytes), content type and ETag; null when the key does not exist. */
  async statKey(key: string): Promise<{ size: number; contentType: string; etag: string } | null> {
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.cfg.bucket, Key: checkKey(key) })).catch((err: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
      if (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404) return null;
      throw err;
    });
    if (!head) return null;
    return { size: Number(head.ContentLength ?? 0), contentType: head.ContentType ?? 'application/octet-stream', etag: head.ETag ?? '' };
  }

  /** Streams `key` to the local `file` (at most `maxBytes`); null when the key does not exist. @throws MediaReadError when larger. */
  async fetchToFile(key: string, file: string, maxBytes: number): Promise<{ size: number; contentType: string; etag: string } | null> {
    const head = await this.statKey(key);
    if (!head) return null;
    if (head.size > maxBytes) throw new MediaReadError(`media file is ${head.size} bytes; at most ${maxBytes} are allowed`);
    // The object read is the one that HEAD described (a PUT in between fails the read instead of mixing two objects).
    const obj = await this.client.send(new GetObjectCommand({ Bucket: this.cfg.bucket, Key: key, ...(head.etag ? { IfMatch: head.etag } : {}) }));
    await pipeline(obj.Body as Readable, fs.createWriteStream(file, { mode: 0o600 }));
    return head;
  }

  /** The storage key of one of our URLs (public or presigned), or null for a foreign URL. */
  async keyFromUrl(url: string): Promise<string | null> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    const bare = `${u.origin}${u.pathname}`;
    let prefix: string | null = null;
    if (this.cfg.publicUrl && bare.startsWith(`${this.cfg.publicUrl}/`)) prefix = `${this.cfg.publicUrl}/`;
    else {
      this.presignedBase ??= await (async () => {
        const probe = new URL(await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.cfg.bucket, Key: 'k' }), { expiresIn: 60 }));
        return `${probe.origin}${probe.pathname.slice(0, -1)}`;
      })();
      if (bare.startsWith(this.presignedBase)) prefix = this.presignedBase;
    }
    if (!prefix) return null;
    try {
      return checkKey(bare.slice(prefix.length).split('/').map(decodeURIComponent).join('/'));
    } catch {
      return null;
    }
  }

  async readByUrl(url: string, maxBytes: number): Promise<{ bytes: Buffer; mimeType: string } | null> {
    const key = await this.keyFromUrl(url);
    if (!key) return null;
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.cfg.bucket, Key: key })).catch((err: { name?: string }) => {
      if (err.name === 'NotFound' || err.name === 'NoSuchKey') throw new MediaReadError('media file not found; it may have been deleted, upload it again');
      throw err;
    });
    const size = Number(head.ContentLength ?? 0);
    if (size > maxBytes) throw new MediaReadError(`media file is ${size} bytes; the platform allows at most ${maxBytes}`);
    const obj = await this.client.send(new GetObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of obj.Body as Readable) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw new MediaReadError(`media file is larger than ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
    return { bytes: Buffer.concat(chunks), mimeType: head.ContentType && head.ContentType !== 'application/octet-stream' ? head.ContentType : mimeTypeOfKey(key) };
  }
}
