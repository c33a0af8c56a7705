/**
 * Upload benchmark: one large file through the client-upload flow (POST /v1/media with
 * JSON, then tus PATCH requests to the upload URL) to a local Herald, which runs as its
 * own process (`node bin/herald.js api`, embedded PostgreSQL in a temporary directory),
 * so that its peak RSS (VmHWM from /proc) is Herald's alone. The file (default 2 GiB) is
 * generated on the fly (an MP4 header followed by pseudo-random bytes), never stored
 * by the bench itself. Prints throughput and Herald's memory; asserts nothing.
 *
 *   node --import tsx bench/upload.ts [--size-mb 2048] [--patches 4] [--storage local|s3]
 *
 * From another script: `import { runUploadBench, printUploadBench } from './upload.ts'`.
 * With `--storage s3` the bench also runs s3rver (in the bench process) and Herald
 * streams the completed file into it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;

export interface UploadBenchOptions {
  /** File size in MiB (default 2048 = 2 GiB). */
  sizeMb?: number;
  /** Number of PATCH requests the bytes are split into (default 4; tus resumes at each boundary). */
  patches?: number;
  /** Herald's storage backend (default local). */
  storage?: 'local' | 's3';
  log?: (line: string) => void;
}

export interface UploadBenchResult {
  sizeBytes: number;
  patches: number;
  storage: 'local' | 's3';
  /** Seconds spent sending the bytes (all PATCH requests but the completion work of the last one). */
  transferSeconds: number;
  /** Seconds from the last byte sent to the final answer (sniff, ffprobe, move into storage, database row). */
  completionSeconds: number;
  totalSeconds: number;
  /** Decimal MB (10^6 bytes) per second over the whole flow. */
  throughputMBps: number;
  heraldRssBeforeMiB: number;
  heraldPeakRssMiB: number;
  benchPeakRssMiB: number;
  machine: string;
}

const freePort = () => new Promise<number>((resolve, reject) => {
  const srv = net.createServer();
  srv.once('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address() as net.AddressInfo; srv.close(() => resolve(port)); });
});

/** VmRSS and VmHWM (peak) of a process, MiB, from /proc (Linux). */
function rssOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** `size` bytes: an ISO BMFF `ftyp` box (so the bytes sniff as video/mp4), then a reused 1 MiB random block. */
function generated(size: number, start: number, end: number): Readable {
  const block = randomBytes(MiB);
  Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypmp42'), 0, 0, 0, 0, ...Buffer.from('mp42isom')]).copy(block);
  let pos = start;
  return new Readable({
    highWaterMark: MiB,
    read() {
      if (pos >= end) { this.push(null); return; }
      const from = pos % MiB;
      const n = Math.min(MiB - from, end - pos);
      this.push(block.subarray(from, from + n));
      pos += n;
    },
  });
}

function request(url: string, init: { method: string; headers: Record<string, string>; body?: Readable | string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method, headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (init.body instanceof Readable) init.body.pipe(req);
    else req.end(init.body);
  });
}

async function startHerald(env: Record<string, string>, log: (l: string) => void): Promise<{ child: ChildProcess; url: string; apiKey: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-upload-'));
  fs.chmodSync(dataDir, 0o755); // run as root, the embedded PostgreSQL drops to its own user and must reach its directory
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/herald.js'), 'api'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root',
      HERALD_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', HERALD_EMBEDDED_PG_PORT: String(await freePort()),
      HERALD_LOG_LEVEL: 'warn', HERALD_RATE_LIMIT: 'off', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => log(`[herald] ${d.toString().trimEnd()}`));
  const apiKey = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Herald did not start in 120 s:\n${out}`)), 120_000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Herald exited with ${code}:\n${out}`)); });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"apiKey":"([^"]+)"/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try { if ((await request(`${url}/v1/openapi.json`, { method: 'GET', headers: {} })).status === 200) break; } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, apiKey, dataDir };
}

async function stopHerald(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** Runs the benchmark once; resolves with the figures. */
export async function runUploadBench(opts: UploadBenchOptions = {}): Promise<UploadBenchResult> {
  const size = Math.round((opts.sizeMb ?? 2048) * MiB);
  const patches = Math.max(1, opts.patches ?? 4);
  const storage = opts.storage ?? 'local';
  const log = opts.log ?? (() => {});
  let s3: { close(): Promise<void>; dir: string } | null = null;
  const env: Record<string, string> = {};
  if (storage === 's3') {
    const { default: S3rver } = await import('s3rver');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-s3-'));
    const srv = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true, configureBuckets: [{ name: 'bench', configs: [] }] });
    const { port } = await srv.run();
    s3 = { close: () => srv.close(), dir };
    Object.assign(env, {
      HERALD_STORAGE: 's3', HERALD_S3_BUCKET: 'bench', HERALD_S3_ENDPOINT: `http://127.0.0.1:${port}`, HERALD_S3_ACCESS_KEY_ID: 'S3RVER',
      HERALD_S3_SECRET_ACCESS_KEY: 'S3RVER', HERALD_S3_FORCE_PATH_STYLE: 'true',
    });
  }
  const herald = await startHerald(env, log);
  let benchPeak = 0;
  const sampler = setInterval(() => { benchPeak = Math.max(benchPeak, process.memoryUsage.rss() / MiB); }, 100);
  try {
    const pid = herald.child.pid!;
    const before = rssOf(pid);
    const start = await request(`${herald.url}/v1/media`, {
      method: 'POST', headers: { authorization: `Bearer ${herald.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'bench.mp4', contentType: 'video/mp4', size }),
    });
    if (start.status !== 201) throw new Error(`POST /v1/media answered ${start.status}: ${start.text}`);
    const ticket = JSON.parse(start.text) as { uploadUrl: string; token: string };
    log(`upload URL ${ticket.uploadUrl}`);

    const t0 = performance.now();
    let lastSent = t0;
    let final: { status: number; text: string } | null = null;
    const per = Math.ceil(size / patches);
    for (let offset = 0, i = 0; offset < size; offset += per, i++) {
      const end = Math.min(size, offset + per);
      const body = generated(size, offset, end);
      body.on('end', () => { lastSent = performance.now(); });
      const res = await request(ticket.uploadUrl, {
        method: 'PATCH', body,
        headers: {
          authorization: `Bearer ${ticket.token}`, 'tus-resumable': '1.0.0', 'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream', 'content-length': String(end - offset),
        },
      });
      if (res.status !== 204 && res.status !== 200) throw new Error(`PATCH ${i + 1}/${patches} answered ${res.status}: ${res.text}`);
      log(`PATCH ${i + 1}/${patches}: ${res.status} offset ${res.headers['upload-offset'] ?? end}`);
      if (end === size) final = res;
    }
    const t1 = performance.now();
    if (final?.status !== 200) throw new Error(`the last PATCH answered ${final?.status}: ${final?.text}`);
    const files = (JSON.parse(final.text) as { files: Array<{ size: number }> }).files;
    if (files[0]?.size !== size) throw new Error(`stored ${files[0]?.size} bytes, sent ${size}`);
    const after = rssOf(pid);
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    return {
      sizeBytes: size, patches, storage,
      transferSeconds: (lastSent - t0) / 1000, completionSeconds: (t1 - lastSent) / 1000, totalSeconds: (t1 - t0) / 1000,
      throughputMBps: size / 1e6 / ((t1 - t0) / 1000),
      heraldRssBeforeMiB: before.rss, heraldPeakRssMiB: after.peak, benchPeakRssMiB: benchPeak,
      machine: `${cpu.trim()}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`,
    };
  } finally {
    clearInterval(sampler);
    await stopHerald(herald.child);
    fs.rmSync(herald.dataDir, { recursive: true, force: true });
    if (s3) { await s3.close(); fs.rmSync(s3.dir, { recursive: true, force: true }); }
  }
}

/** Prints the figures of one run, one per line. */
export function printUploadBench(r: UploadBenchResult, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): void {
  out(`Upload benchmark (client-upload flow, tus): ${r.machine}`);
  out(`  file                ${(r.sizeBytes / MiB).toFixed(0)} MiB video/mp4 in ${r.patches} PATCH request(s), storage ${r.storage}`);
  out(`  transfer            ${r.transferSeconds.toFixed(2)} s (${(r.sizeBytes / 1e6 / r.transferSeconds).toFixed(1)} MB/s)`);
  out(`  completion          ${r.completionSeconds.toFixed(2)} s (type check, ffprobe, move into storage, database row)`);
  out(`  throughput          ${r.throughputMBps.toFixed(1)} MB/s over ${r.totalSeconds.toFixed(2)} s`);
  out(`  Herald RSS          ${r.heraldRssBeforeMiB.toFixed(0)} MiB before, peak ${r.heraldPeakRssMiB.toFixed(0)} MiB (VmHWM of the Herald process)`);
  out(`  bench client RSS    peak ${r.benchPeakRssMiB.toFixed(0)} MiB`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, patches: { type: 'string' }, storage: { type: 'string' }, verbose: { type: 'boolean' } } });
  const storage = values.storage ?? 'local';
  if (storage !== 'local' && storage !== 's3') throw new Error('--storage must be local or s3');
  const result = await runUploadBench({
    sizeMb: values['size-mb'] ? Number(values['size-mb']) : undefined, patches: values.patches ? Number(values.patches) : undefined,
    storage, log: values.verbose ? (l) => process.stderr.write(`${l}\n`) : undefined,
  });
  printUploadBench(result);
}
