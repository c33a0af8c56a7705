/**
 * Summarises a V8 CPU profile (.cpuprofile, from `node --cpu-prof` or the inspector's
 * Profiler, as `npm run bench -- --profile` writes them):
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 * prints the top functions by self time and by inclusive time (the time a function was
 * anywhere on the stack, counted once per sample even when recursive), then the same
 * grouped by where the code lives: one of our files (src/..., bench/...), an npm package
 * (node_modules/<name>), Node's own JavaScript (node:...), or V8/native ((garbage
 * collector), (program), bindings such as writev).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where a frame's code lives: our file, an npm package, Node itself, or V8/native. */
export function groupOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  let p = url;
  if (p.startsWith('file://')) { try { p = fileURLToPath(p); } catch { /* keep as is */ } }
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = p.slice(nm + '/node_modules/'.length).split('/');
    return 'pkg ' + (parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
  }
  if (p.startsWith(ROOT + '/')) return path.relative(ROOT, p);
  return p;
}

function frameKey(cf: CallFrame): string {
  const name = cf.functionName || '(anonymous)';
  if (!cf.url) return name;
  return `${name} ${groupOf(cf.url, cf.functionName).replace(/^pkg /, '')}:${cf.lineNumber + 1}`;
}

export interface Row { key: string; group: string; ms: number; pct: number }
export interface Summary {
  totalMs: number;
  busyMs: number;
  selfTop: Row[];
  inclusiveTop: Row[];
  /** Inclusive time of our own functions (src/, bench/) only. */
  ourInclusiveTop: Row[];
  groupSelf: Row[];
  groupInclusive: Row[];
  /** For the heaviest self-time functions: who they ran for (the nearest frame in our code or a package). */
  callers: { key: string; ms: number; by: Row[] }[];
}

const isNodeOrNative = (g: string) => g.startsWith('node:') || g.startsWith('(');
const isOurs = (g: string) => g.startsWith('src/') || g.startsWith('bench/');

export function summarise(profile: CpuProfile, top = 25): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Each sample stands for the time until the next one; the last gets the mean interval.
  const total = (profile.endTime - profile.startTime) / 1000;
  const n = profile.samples.length;
  const dt = profile.timeDeltas.map((d) => d / 1000);
  const weight = (i: number) => (i + 1 < n ? dt[i + 1] : total / Math.max(1, n));

  const selfFn = new Map<string, Row>();
  const inclFn = new Map<string, Row>();
  const selfGroup = new Map<string, Row>();
  const inclGroup = new Map<string, Row>();
  const add = (m: Map<string, Row>, key: string, group: string, w: number) => {
    const r = m.get(key);
    if (r) r.ms += w; else m.set(key, { key, group, ms: w, pct: 0 });
  };
  let idle = 0;
  const callersOf = new Map<string, Map<string, Row>>();
  const ownerKey = (leafId: number): string => {
    for (let id: number | undefined = parent.get(leafId); id !== undefined; id = parent.get(id)) {
      const cf = byId.get(id)!.callFrame;
      const g = groupOf(cf.url, cf.functionName);
      if (!isNodeOrNative(g)) return `${g.replace(/^pkg /, '')}: ${cf.functionName || '(anonymous)'}`;
    }
    return '(Node only)';
  };
  for (let i = 0; i < n; i++) {
    const w = weight(i);
    const leaf = byId.get(profile.samples[i]);
    if (!leaf) continue;
    const g = groupOf(leaf.callFrame.url, leaf.callFrame.functionName);
    if (leaf.callFrame.functionName === '(idle)') idle += w;
    add(selfFn, frameKey(leaf.callFrame), g, w);
    if (isNodeOrNative(g) && !leaf.callFrame.functionName.startsWith('(')) {
      const k = frameKey(leaf.callFrame);
      if (!callersOf.has(k)) callersOf.set(k, new Map());
      const owner = ownerKey(leaf.id);
      add(callersOf.get(k)!, owner, owner, w);
    }
    add(selfGroup, g, g, w);
    const seenFn = new Set<string>();
    const seenGroup = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!;
      const cf = node.callFrame;
      if (cf.functionName === '(root)') continue;
      const k = frameKey(cf);
      const gg = groupOf(cf.url, cf.functionName);
      if (!seenFn.has(k)) { seenFn.add(k); add(inclFn, k, gg, w); }
      if (!seenGroup.has(gg)) { seenGroup.add(gg); add(inclGroup, gg, gg, w); }
    }
  }
  const sum = [...selfGroup.values()].reduce((s, r) => s + r.ms, 0);
  const topOf = (m: Map<string, Row>) => [...m.values()].sort((a, b) => b.ms - a.ms).slice(0, top).map((r) => ({ ...r, pct: (r.ms / sum) * 100 }));
  const selfTop = topOf(selfFn);
  const callers = selfTop.filter((r) => callersOf.has(r.key)).slice(0, 3).map((r) => ({
    key: r.key, ms: r.ms, by: topOf(callersOf.get(r.key)!).slice(0, 6),
  }));
  const ours = new Map([...inclFn].filter(([, r]) => isOurs(r.group)));
  return {
    totalMs: sum, busyMs: sum - idle,
    selfTop, inclusiveTop: topOf(inclFn), ourInclusiveTop: topOf(ours), groupSelf: topOf(selfGroup), groupInclusive: topOf(inclGroup), callers,
  };
}

export function printSummary(s: Summary, title: string): void {
  const table = (head: string, rows: Row[], withGroup: boolean) => {
    console.log(`\n  ${head}`);
    console.log(`    ${'ms'.padStart(8)} ${'%'.padStart(6)}  ${withGroup ? 'function (file:line)' : 'where'}`);
    for (const r of rows) console.log(`    ${r.ms.toFixed(0).padStart(8)} ${r.pct.toFixed(1).padStart(6)}  ${r.key}`);
  };
  console.log(`${title}: ${(s.totalMs / 1000).toFixed(1)} s sampled, busy ${(s.busyMs / 1000).toFixed(1)} s (${((s.busyMs / s.totalMs) * 100).toFixed(0)}%), % of all samples`);
  table('self time by where the code lives', s.groupSelf, false);
  table('inclusive time by where the code lives (counted once per sample)', s.groupInclusive, false);
  table('top functions by self time', s.selfTop, true);
  table('top functions by inclusive time', s.inclusiveTop, true);
  table('top functions of our own code (src/, bench/) by inclusive time', s.ourInclusiveTop, true);
  for (const c of s.callers) table(`${c.key} (${c.ms.toFixed(0)} ms self): for whom, by the nearest frame in our code or a package`, c.by, false);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=25]');
    process.exit(2);
  }
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  printSummary(summarise(profile, Number(process.argv[3] ?? 25)), path.basename(file));
}
