/**
 * The dashboard's first load stays small: the JavaScript a browser must fetch before
 * the dashboard can draw anything (dashboard.html's entry script and every module it imports
 * statically, followed through the built files) is measured from the real production build
 * (web/dist, built by test/web/build-setup.ts) and held under a gzipped ceiling, so a heavy
 * library imported from the shell (instead of from a page loaded on demand) fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Most gzipped bytes of JavaScript in the dashboard's first load. About 90 KB today (React and
 * React DOM are 67 KB of it); the rest is room for the shell to grow, not for a library: a chart,
 * editor or date library belongs in the chunk of the page that uses it (React.lazy in App.tsx).
 */
const INITIAL_JS_BUDGET_GZIP = 110 * 1024;

/**
 * Most gzipped bytes of JavaScript a page adds to the first load (its chunk and what only it
 * imports), and the chunks it must not load with it: libraries it needs only on demand are loaded
 * when used (React.lazy). The calendar (about 10 KB) loads its day list's dialog when "+N more" is
 * pressed; the posts list (about 20 KB, the table library included) its bulk actions when a row is selected;
 * the composer (about 89 KB, the platforms' rule catalog included) its time-zone, date and time
 * pickers when they first show, and the phone layout's tabs only on a phone.
 */
const PAGE_BUDGETS: Array<[string, number, RegExp]> = [
  ['Calendar', 20 * 1024, /DayDialog|confirm|Dialog/],
  ['Posts', 30 * 1024, /posts-bulk|confirm|Dialog/],
  ['Composer', 90 * 1024, /time-zone-picker|date-time-picker|ComposerTabs/],
];

/** The files (paths under web/dist) the entry `entry` imports statically, itself included, each once. */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = fs.readFileSync(path.join(DIST, file), 'utf8');
    // Static imports only (`import{x}from"./a.js"`, `import"./a.js"`); `import("./a.js")` loads on demand.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) visit(path.posix.join(path.posix.dirname(file), m[1]));
  };
  visit(entry);
  return [...seen];
}

describe('dashboard bundle budget', () => {
  const html = fs.readFileSync(path.join(DIST, 'dashboard.html'), 'utf8');
  const entry = /<script type="module"[^>]*\ssrc="\/([^"]+\.js)"/.exec(html)?.[1];

  it('has one entry script, whose static imports are all preloaded by dashboard.html', () => {
    expect(entry).toMatch(/^assets\/dashboard-[\w-]+\.js$/);
    const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((m) => m[1]);
    expect(staticClosure(entry!).filter((f) => f !== entry).sort()).toEqual(preloaded.sort());
  });

  it(`loads at most ${INITIAL_JS_BUDGET_GZIP / 1024} KB of gzipped JavaScript before the first screen`, () => {
    const files = staticClosure(entry!).map((f) => ({ file: f, gzip: gzipSync(fs.readFileSync(path.join(DIST, f)), { level: 9 }).length }));
    const total = files.reduce((n, f) => n + f.gzip, 0);
    const listing = files.sort((a, b) => b.gzip - a.gzip).map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} KB`).join(', ');
    expect(total, `first-load JavaScript is ${(total / 1024).toFixed(1)} KB gzipped: ${listing}`).toBeLessThanOrEqual(INITIAL_JS_BUDGET_GZIP);
    // The pages load on demand: the Analytics page's chart library is not in the first load.
    expect(files.some((f) => /Analytics|Composer|Calendar/.test(f.file))).toBe(false);
    // Nor does the dialog and toast library (React Aria Components): the toast region loads after the first screen.
    expect(files.some((f) => /toast-region|confirm/.test(f.file))).toBe(false);
  });

  /** The gzipped files that page `name`'s chunk (as this build's shell loads it) adds to the first load. */
  function pageAddsOn(name: string): Array<{ file: string; gzip: number }> {
    const first = new Set(staticClosure(entry!));
    // The chunk this build's shell loads (web/dist may hold older builds' files too).
    const chunk = [...new Set([...first].flatMap((f) => [...fs.readFileSync(path.join(DIST, f), 'utf8').matchAll(new RegExp(`${name}-[\\w-]+\\.js`, 'g'))].map((m) => m[0])))];
    expect(chunk).toHaveLength(1);
    return staticClosure(`assets/${chunk[0]}`).filter((f) => !first.has(f))
      .map((f) => ({ file: f, gzip: gzipSync(fs.readFileSync(path.join(DIST, f)), { level: 9 }).length }));
  }

  for (const [name, budget, onDemand] of PAGE_BUDGETS) {
    it(`loads at most ${budget / 1024} KB of gzipped JavaScript more to open the ${name} page, ${onDemand.source} on demand`, () => {
      const files = pageAddsOn(name);
      const total = files.reduce((n, f) => n + f.gzip, 0);
      const listing = files.sort((a, b) => b.gzip - a.gzip).map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} KB`).join(', ');
      expect(total, `the ${name} page adds ${(total / 1024).toFixed(1)} KB gzipped: ${listing}`).toBeLessThanOrEqual(budget);
      // Its dialogs (React Aria Components) come when first opened, not with the page.
      expect(files.filter((f) => onDemand.test(f.file)).map((f) => f.file)).toEqual([]);
    });
  }
});
