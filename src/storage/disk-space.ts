/**
 * The disk that Herald writes uploads to (the local media storage and the upload staging folder
 * under the data directory): recognising a write that failed for a full disk, and what GET /health
 * says about the disk (docs/decisions/0044-database-failures.md).
 */
import fs from 'node:fs';
import { AppError } from '../core/errors.ts';

/** Node error codes of a write refused for want of space: no space left, disk quota exceeded. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** /health keeps reporting a write that failed for a full disk this long, unless a write succeeds first. */
export const FULL_DISK_MEMORY_MS = 10 * 60_000;

/** True when `err` (or an error in its `cause` chain) is a write refused for a full disk (ENOSPC, EDQUOT). */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
  }
  return false;
}

/** The 507 STORAGE_FULL for a file that could not be written for a full disk (the message names no server path). */
export function storageFullError(cause: unknown): AppError {
  const err = new AppError('STORAGE_FULL', 'The media storage is full: the file was not stored. Try again once the server\'s operator has freed space.');
  return Object.assign(err, { cause });
}

/** The disk's part of GET /health. */
export interface DiskHealth {
  /** False when free space is under the floor, or a write failed for a full disk lately. */
  ok: boolean;
  /** Free space for Herald's files (the least of the watched folders), bytes; null when it could not be read. */
  freeBytes: number | null;
  /** The floor (HERALD_MEDIA_MIN_FREE_MB), bytes. */
  minFreeBytes: number;
  /** When a write last failed for a full disk (ISO 8601), while it counts; null otherwise. */
  lastFullAt: string | null;
  error?: string;
}

/** Watches the folders Herald writes uploads to. */
export interface DiskSpaceMonitor {
  /**
   * The error to raise for a failed write: a full disk is recorded (for /health) and becomes
   * 507 STORAGE_FULL; any other error is returned as it is.
   */
  failed(err: unknown): unknown;
  /** Records a write that succeeded: an earlier full-disk failure no longer counts. */
  wrote(): void;
  /** Free space and the last full-disk failure, for GET /health. */
  check(): Promise<DiskHealth>;
}

/**
 * A monitor of `dirs` (each is read with statfs: https://nodejs.org/api/fs.html#fspromisesstatfspath-options).
 * The disk is reported full while the free space of any of them is under `minFreeBytes`, and for
 * {@link FULL_DISK_MEMORY_MS} after a write failed for a full disk (until a write succeeds): a
 * failed upload's partial file is removed, which may bring the free space back over the floor.
 */
export function createDiskSpaceMonitor(opts: { dirs: string[]; minFreeBytes: number; now?: () => number }): DiskSpaceMonitor {
  const now = opts.now ?? Date.now;
  let lastFullAt: number | null = null;
  return {
    failed(err) {
      if (!isDiskFull(err)) return err;
      lastFullAt = now();
      return err instanceof AppError && err.code === 'STORAGE_FULL' ? err : storageFullError(err);
    },
    wrote() {
      lastFullAt = null;
    },
    async check() {
      if (lastFullAt !== null && now() - lastFullAt > FULL_DISK_MEMORY_MS) lastFullAt = null;
      let freeBytes: number | null = null;
      let error: string | undefined;
      for (const dir of opts.dirs) {
        try {
          const s = await fs.promises.statfs(dir);
          const free = s.bavail * s.bsize;
          freeBytes = freeBytes === null ? free : Math.min(freeBytes, free);
        } catch (err) {
          error = `free space could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
        }
      }
      const ok = error === undefined && lastFullAt === null && (freeBytes === null || freeBytes >= opts.minFreeBytes);
      return {
        ok, freeBytes, minFreeBytes: opts.minFreeBytes, lastFullAt: lastFullAt === null ? null : new Date(lastFullAt).toISOString(),
        ...(error ? { error } : lastFullAt !== null ? { error: 'a write failed for a full disk' } : freeBytes !== null && freeBytes < opts.minFreeBytes ? { error: 'free space is under HERALD_MEDIA_MIN_FREE_MB' } : {}),
      };
    },
  };
}
