#!/usr/bin/env node
/**
 * Builds the web app into web/dist when its sources changed since the last build (so a
 * second `npm start` is fast). Sources: web/ (without dist), the server modules the web app
 * imports (src/shared) and package-lock.json. The check first compares each source's size and
 * modification time with the last build's (stat only, a few ms), and reads the sources to
 * compare their content hash only when those differ (a checkout that rewrote equal files).
 * `--force` rebuilds anyway. Prints one line either way.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(webDir, '..');
const dist = path.join(webDir, 'dist');
const stamp = path.join(dist, '.build-hash');

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (p === dist || e.name === 'node_modules') continue;
      yield* files(p);
    } else yield p;
  }
}

const sources = () => [...files(webDir), ...files(path.join(root, 'src/shared')), path.join(root, 'package-lock.json')].filter((f) => fs.existsSync(f));

/** SHA-256 over the sources' paths and contents (hex). */
export function sourceHash() {
  const h = createHash('sha256');
  for (const f of sources()) h.update(path.relative(root, f)).update('\0').update(fs.readFileSync(f)).update('\0');
  return h.digest('hex');
}

/** SHA-256 over the sources' paths, sizes and modification times (hex): no file is read. */
function statHash() {
  const h = createHash('sha256');
  for (const f of sources()) {
    const st = fs.statSync(f);
    h.update(path.relative(root, f)).update('\0').update(`${st.size}:${st.mtimeMs}`).update('\0');
  }
  return h.digest('hex');
}

/** The last build's stamp: `{ content, stat }` (an older stamp is the content hash alone). */
function readStamp() {
  if (!fs.existsSync(stamp)) return null;
  const text = fs.readFileSync(stamp, 'utf8').trim();
  try { return JSON.parse(text); } catch { return { content: text, stat: null }; }
}

/** Deletes hashed assets that the build starting at `builtAfter` did not write and that are over a day old. */
function pruneAssets(builtAfter) {
  const dir = path.join(dist, 'assets');
  if (!fs.existsSync(dir)) return;
  for (const f of fs.readdirSync(dir)) {
    const p = path.join(dir, f);
    const { mtimeMs } = fs.statSync(p);
    if (mtimeMs < builtAfter && mtimeMs < Date.now() - 86_400_000) fs.rmSync(p, { force: true });
  }
}

/** Builds when stale; returns true when it built. */
export async function buildWeb({ force = false, quiet = false } = {}) {
  const last = readStamp();
  const stat = statHash();
  if (!force && last && last.stat === stat) {
    if (!quiet) console.log('web app is up to date (web/dist)');
    return false;
  }
  const hash = sourceHash();
  if (!force && last && last.content === hash) {
    fs.writeFileSync(stamp, JSON.stringify({ content: hash, stat }) + '\n');
    if (!quiet) console.log('web app is up to date (web/dist)');
    return false;
  }
  const started = Date.now();
  const { build } = await import('vite');
  // Always a production build, also when called from a test runner (NODE_ENV=test would bundle React's development build).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(webDir, 'vite.config.ts'), mode: 'production', logLevel: quiet ? 'error' : 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV; else process.env.NODE_ENV = nodeEnv;
  }
  pruneAssets(started - 1000);
  fs.writeFileSync(stamp, JSON.stringify({ content: hash, stat: statHash() }) + '\n');
  if (!quiet) console.log(`web app built into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildWeb({ force: process.argv.includes('--force') }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
