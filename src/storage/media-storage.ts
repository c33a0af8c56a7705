/**
 * Media storage behind one interface, so that local disk (default) and S3-compatible
 * object storage (a later issue) are interchangeable. Files are written from a stream;
 * nothing here buffers a whole upload in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export interface StoredObject {
  key: string;
  size: number;
  url: string;
}

export interface MediaStorage {
  /** Writes `body` under `key`. @throws when the stream fails; nothing partial stays stored. */
  put(key: string, body: Readable, contentType: string): Promise<StoredObject>;
  delete(key: string): Promise<void>;
  /** Moves a stored object to another key (after its name is known). */
  move(fromKey: string, toKey: string): Promise<StoredObject>;
  /** Public URL of a stored key. */
  urlFor(key: string): string;
  /** Reads a file by its public URL when the URL is one of ours; null for foreign URLs. @throws when larger than maxBytes. */
  readByUrl(url: string, maxBytes: number): Promise<{ bytes: Buffer; mimeType: string } | null>;
  /** Registers routes that serve the files, when the backend serves them itself. */
  registerRoutes?(app: FastifyInstance): Promise<void>;
}

const MIME_BY_EXT: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif',
  '.mp4': 'video/mp4', '.m4v': 'video/x-m4v', '.mov': 'video/quicktime', '.mpeg': 'video/mpeg', '.mpg': 'video/mpeg',
  '.avi': 'video/x-msvideo', '.webm': 'video/webm', '.pdf': 'application/pdf',
};

/** Files under `<dataDir>/media`, served at `<publicUrl>/media/<key>`. */
export class LocalDiskStorage implements MediaStorage {
  constructor(private readonly root: string, private readonly publicUrl: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  private pathOf(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(this.root + path.sep)) throw new Error(`invalid storage key ${key}`);
    return p;
  }

  async put(key: string, body: Readable, _contentType: string): Promise<StoredObject> {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.part`;
    try {
      await pipeline(body, fs.createWriteStream(tmp, { mode: 0o644 }));
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    const { size } = await fs.promises.stat(file);
    return { key, size, url: this.urlFor(key) };
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async move(fromKey: string, toKey: string): Promise<StoredObject> {
    const to = this.pathOf(toKey);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.rename(this.pathOf(fromKey), to);
    const { size } = await fs.promises.stat(to);
    return { key: toKey, size, url: this.urlFor(toKey) };
  }

  urlFor(key: string): string {
    return `${this.publicUrl}/media/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  async readByUrl(url: string, maxBytes: number): Promise<{ bytes: Buffer; mimeType: string } | null> {
    const prefix = `${this.publicUrl}/media/`;
    if (!url.startsWith(prefix)) return null;
    const key = url.slice(prefix.length).split('?')[0].split('/').map(decodeURIComponent).join('/');
    const file = this.pathOf(key);
    const { size } = await fs.promises.stat(file);
    if (size > maxBytes) throw new Error(`media file is ${size} bytes; the platform allows at most ${maxBytes}`);
    return { bytes: await fs.promises.readFile(file), mimeType: MIME_BY_EXT[path.extname(file).toLowerCase()] ?? 'application/octet-stream' };
  }

  async registerRoutes(app: FastifyInstance): Promise<void> {
    await app.register(fastifyStatic, {
      root: this.root, prefix: '/media/', decorateReply: false, index: false, list: false, dotfiles: 'deny',
      setHeaders: (reply) => { reply.header('cache-control', 'public, max-age=31536000, immutable'); reply.header('x-content-type-options', 'nosniff'); },
    });
  }
}
