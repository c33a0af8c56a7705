/**
 * A clip job survives kill -9: a real worker process (`herald worker`) is killed with SIGKILL
 * after the first of two clips was rendered; a new worker takes the job over once its lease
 * runs out and finishes it from the saved steps: the source is not downloaded again, the
 * analysis and the chosen windows are reused, and the finished clip is kept, not rendered again.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { waitFor } from '../support/net.ts';
import { spawnHerald } from '../support/sim-process.ts';
import { makeVideo } from './support.ts';

let ctx: TestContext;
let server: http.Server;
let sourceUrl: string;
let gets = 0;
let dir: string;
const children = new Set<ChildProcess>();

const startWorkerProcess = (): ChildProcess => spawnHerald('worker', {
  DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir,
  HERALD_WORKER_STALE_MS: '2000', HERALD_WORKER_POLL_MS: '100', HERALD_LOG_LEVEL: 'warn', HERALD_ALLOW_PRIVATE_URLS: 'true',
  HERALD_CLIPS_PRESET: 'ultrafast', HERALD_CLIPS_OUTPUT_HEIGHT: '640',
}, children, 'inherit');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clips-crash-'));
  ctx = await createTestApp();
  // 270 s with two loud, busy stretches (60-90 s and 180-210 s): two clips.
  const file = path.join(dir, 'long.mp4');
  await makeVideo(file, [
    { kind: 'still', seconds: 60 }, { kind: 'busy', seconds: 30 }, { kind: 'still', seconds: 90 }, { kind: 'busy', seconds: 30 }, { kind: 'still', seconds: 60 },
  ]);
  const bytes = fs.readFileSync(file);
  server = http.createServer((req, res) => {
    gets++;
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) });
    res.end(bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  sourceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/long.mp4`;
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  server?.closeAllConnections();
  server?.close();
  await ctx?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('kill -9 of a worker mid-job', () => {
  it('a new worker resumes the job from its saved steps and finishes it', async () => {
    const tenant = await createTenant(ctx, { plan: 'free' });
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/video-clips/process', headers: tenant.headers, payload: { video_url: sourceUrl, video_file_name: 'long.mp4' } });
    expect(res.statusCode).toBe(200);
    const jobId = res.json().job_id;
    const clipRows = async () => (await ctx.db.query<{ id: string; idx: number; created_at: Date }>('SELECT id, idx, created_at FROM video_clips WHERE job_id = $1 ORDER BY idx', [jobId])).rows;

    const first = startWorkerProcess();
    await waitFor(async () => (await clipRows()).length >= 1, { timeoutMs: 90_000, intervalMs: 50, what: 'the first clip' });
    const exited = new Promise((r) => first.once('exit', r));
    first.kill('SIGKILL');
    await exited;
    const before = await clipRows();
    const mid = (await ctx.app.inject({ method: 'GET', url: `/v1/video-clips/status/${jobId}`, headers: tenant.headers })).json();
    expect(mid.status).toBe('processing');
    expect(mid.progress.stage).toBe('rendering');
    expect(before).toHaveLength(1);

    startWorkerProcess();
    const done = await waitFor(async () => {
      const body = (await ctx.app.inject({ method: 'GET', url: `/v1/video-clips/status/${jobId}`, headers: tenant.headers })).json();
      return body.status === 'processing' ? null : body;
    }, { timeoutMs: 90_000, intervalMs: 200, what: 'the job to finish' });
    expect(done).toMatchObject({ status: 'completed', total_clips: 2, error: null });
    expect(done.clips.map((c: { start_time: number }) => Math.round(c.start_time / 10) * 10)).toEqual([60, 180]);
    const after = await clipRows();
    expect(after[0]).toEqual(before[0]);
    const { rows } = await ctx.db.query<{ attempts: number }>('SELECT attempts FROM clip_jobs WHERE id = $1', [jobId]);
    expect(rows[0].attempts).toBe(2);
    // One request for the submit-time check, one download: the resumed job used the saved source.
    expect(gets).toBe(2);
    // The work folder goes once the job is written down as finished (the worker removes it right after).
    await waitFor(async () => !fs.existsSync(path.join(ctx.dataDir, 'clips-work', jobId)), { timeoutMs: 10_000, intervalMs: 50, what: 'the work folder to go' });
  }, 200_000);
});
