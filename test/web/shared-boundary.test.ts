/**
 * src/shared/ is the only server code the web app and the simulators import, and what the web
 * app takes from it must stay importable by the browser build: no Node-only APIs, no I/O, no
 * imports outside src/shared (npm packages that run in the browser, such as minisearch, are allowed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === 'node_modules' || e.name === 'dist') continue;
      yield* sources(p);
    } else if (/\.(ts|tsx|mts)$/.test(e.name)) yield p;
  }
}

/** Import specifiers of a file (static, re-exports and dynamic imports). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)]
    .map((m) => m[1] ?? m[2] ?? m[3]);
}

const rel = (f: string) => path.relative(root, f);
const shared = path.join(root, 'src/shared');

/** Relative imports resolved to files. */
function localImports(file: string): string[] {
  return importsOf(file).filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s)).filter((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

describe('src/shared boundary', () => {
  it('what the web app imports from src/shared imports only src/shared and browser-safe packages, and uses no Node globals', () => {
    // Every src/shared file the web app reaches, directly or through other shared files.
    const seen = new Set<string>();
    const queue = [...sources(path.join(root, 'web/src'))].flatMap(localImports).filter((f) => f.startsWith(shared + path.sep));
    while (queue.length) {
      const f = queue.pop()!;
      if (seen.has(f) || !/\.(ts|tsx)$/.test(f)) continue;
      seen.add(f);
      queue.push(...localImports(f));
    }
    expect(seen.size).toBeGreaterThan(5);
    const bad: string[] = [];
    for (const f of seen) {
      for (const spec of importsOf(f)) {
        if (spec.startsWith('node:') || ['fs', 'path', 'os', 'crypto', 'url', 'net', 'buffer', 'stream'].includes(spec)) bad.push(`${rel(f)} imports ${spec}`);
        if (spec.startsWith('.') && !path.resolve(path.dirname(f), spec).startsWith(shared + path.sep)) bad.push(`${rel(f)} imports ${spec}`);
      }
      // Code without comments and string literals (code samples in the docs mention process.env).
      const code = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
      for (const g of ['Buffer.', 'process.', '__dirname', 'require(']) if (code.includes(g)) bad.push(`${rel(f)} uses ${g}`);
    }
    expect(bad).toEqual([]);
  });

  it('the web app and the simulators import server code only from src/shared', () => {
    const bad: string[] = [];
    for (const dir of ['web/src', 'sim']) {
      for (const f of sources(path.join(root, dir))) {
        for (const spec of importsOf(f)) {
          if (!spec.startsWith('.')) continue;
          const target = path.resolve(path.dirname(f), spec);
          if (target.startsWith(path.join(root, 'src') + path.sep) && !target.startsWith(shared + path.sep)) bad.push(`${rel(f)} imports ${spec}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
