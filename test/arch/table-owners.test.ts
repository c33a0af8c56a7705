/**
 * One writer per table (docs/decisions/0054-one-writer-per-table.md): every SQL statement in
 * src/ that writes a table (INSERT INTO, UPDATE ... SET, DELETE FROM, so upserts too) must be in
 * the module docs/architecture.md names as the table's writer (section "Who writes each table",
 * between the table-owners markers), or in a module listed there as also writing it.
 *
 * A module is `modules/<name>` for src/modules/<name>/, else the top folder under src/
 * (`publishing`, `storage`, ...). Unit tests beside the code (*.test.ts) are not scanned.
 * A call of a function of the migrations that writes a table (`post_metric_daily_add(`) counts as
 * a write of that table by the calling module. Reads no database: it scans text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface TableOwner { owner: string; also: string[] }

/** The owner table of docs/architecture.md: table -> its writing module and the modules also allowed. */
export function readOwners(markdown: string): Map<string, TableOwner> {
  const begin = markdown.indexOf('<!-- table-owners:begin -->');
  const end = markdown.indexOf('<!-- table-owners:end -->');
  if (begin < 0 || end < begin) throw new Error('docs/architecture.md has no table-owners section');
  const owners = new Map<string, TableOwner>();
  for (const line of markdown.slice(begin, end).split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 2 || !cells[0].startsWith('`')) continue;
    const [table, owner] = [cells[0], cells[1]].map((c) => c.replace(/`/g, ''));
    const also = [...(cells[2] ?? '').matchAll(/^`([^`]+)`|;\s*`([^`]+)`/g)].map((m) => m[1] ?? m[2]);
    if (owners.has(table)) throw new Error(`table ${table} is listed twice`);
    owners.set(table, { owner, also });
  }
  return owners;
}

/** One statement writing a table, where it is. */
export interface TableWrite { table: string; file: string; line: number; verb: string }

// SQL keywords are upper case in this code base; lower-case prose ("update the post") is not SQL.
// UPDATE needs its SET (after an optional alias) so that `FOR UPDATE OF x` and `DO UPDATE SET` are not writes of a table.
const WRITE = /\b(INSERT\s+INTO|DELETE\s+FROM|UPDATE)\s+([a-z_][a-z0-9_]*)\b(?:\s+(?:AS\s+)?[a-z_][a-z0-9_]*)?(\s+SET\b)?/g;
// A table name the scanner cannot read (interpolated) is reported as the table `${...}`, which no owner holds.
const WRITE_ELSE = /\b(INSERT\s+INTO|DELETE\s+FROM|UPDATE|TRUNCATE(?:\s+TABLE)?)\s+(\$\{|[a-z_][a-z0-9_]*)/g;

/** The table writes in one file's text. */
export function findWrites(text: string, file: string): TableWrite[] {
  const out: TableWrite[] = [];
  for (const m of text.matchAll(WRITE)) {
    const verb = m[1].replace(/\s+/g, ' ');
    if (verb === 'UPDATE' && !m[3]) continue;
    out.push({ table: m[2], file, line: text.slice(0, m.index).split('\n').length, verb });
  }
  for (const m of text.matchAll(WRITE_ELSE)) {
    const verb = m[1].replace(/\s+/g, ' ');
    if (m[2] === '${' || verb.startsWith('TRUNCATE')) out.push({ table: m[2] === '${' ? '${...}' : m[2], file, line: text.slice(0, m.index).split('\n').length, verb });
  }
  return out.sort((a, b) => a.line - b.line);
}

/** The module a file under src/ belongs to. */
export function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src') throw new Error(`${file} is not under src/`);
  if (parts[1] === 'modules') return `modules/${parts[2]}`;
  return parts.length > 2 ? parts[1] : '(src root)';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** The writes that break the owner table: a table written from a module that is not its writer, or a table not in it. */
export function violations(owners: Map<string, TableOwner>, writes: TableWrite[]): string[] {
  return writes.flatMap((w) => {
    const o = owners.get(w.table);
    const where = `${w.file}:${w.line} ${w.verb} ${w.table}`;
    if (!o) return [`${where}: table not in the owner table of docs/architecture.md`];
    const mod = moduleOf(w.file);
    if (mod === o.owner || o.also.includes(mod)) return [];
    return [`${where}: written from ${mod}, but its writer is ${o.owner} (move the statement into ${o.owner} and call it there)`];
  });
}

/**
 * The tables each SQL function of the migrations writes (`CREATE FUNCTION name ... $$ body $$`), by
 * the same scan as statements: a module that calls the function (`name(` in its SQL) writes them.
 */
export function functionWrites(sql: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of sql.matchAll(/CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([a-z_][a-z0-9_]*)[\s\S]*?\$\$([\s\S]*?)\$\$/g)) {
    out.set(m[1], [...new Set(findWrites(m[2], 'migrations').map((w) => w.table))]);
  }
  return out;
}

/** The writes of `file` through the migrations' functions (`functions`: name -> tables it writes). */
export function findFunctionWrites(text: string, file: string, functions: Map<string, string[]>): TableWrite[] {
  return [...functions].flatMap(([name, tables]) => [...text.matchAll(new RegExp(`\\b${name}\\(`, 'g'))].flatMap((m) =>
    tables.map((table) => ({ table, file, line: text.slice(0, m.index).split('\n').length, verb: `${name}()` }))));
}

describe('one writer per table', () => {
  const owners = readOwners(readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'));
  const functions = functionWrites(readdirSync(path.join(ROOT, 'migrations')).filter((f) => f.endsWith('.sql'))
    .map((f) => readFileSync(path.join(ROOT, 'migrations', f), 'utf8')).join('\n'));
  const writes = sourceFiles('src').flatMap((f) => {
    const text = readFileSync(path.join(ROOT, f), 'utf8');
    return [...findWrites(text, f), ...findFunctionWrites(text, f, functions)];
  });

  it('every table written in src/ is written only by its declared module', () => {
    expect(violations(owners, writes)).toEqual([]);
  });

  it('every table of the owner table is written by its owner (no stale line)', () => {
    const written = new Set(writes.map((w) => `${w.table} ${moduleOf(w.file)}`));
    const stale = [...owners].filter(([table, o]) => !written.has(`${table} ${o.owner}`)).map(([table, o]) => `${table}: ${o.owner} writes it nowhere`);
    expect(stale).toEqual([]);
  });

  it('counts a call of a migration function as a write of the tables its body writes', () => {
    const fns = functionWrites(`CREATE FUNCTION bump(p int) RETURNS void LANGUAGE sql AS $$
      INSERT INTO tallies AS t (k, n) VALUES (p, 1) ON CONFLICT (k) DO UPDATE SET n = t.n + 1 $$;
      CREATE FUNCTION look() RETURNS int LANGUAGE sql AS $$ SELECT 1 FROM tallies $$;`);
    expect([...fns]).toEqual([['bump', ['tallies']], ['look', []]]);
    const writes = findFunctionWrites("await q.query('SELECT bump($1)', [1]); // unbump(2) is another", 'src/modules/tally/repo.ts', fns);
    expect(writes).toEqual([{ table: 'tallies', file: 'src/modules/tally/repo.ts', line: 1, verb: 'bump()' }]);
    expect(violations(new Map([['tallies', { owner: 'modules/other', also: [] }]]), writes)).toHaveLength(1);
  });

  it('the scanner sees each kind of write and no reads or row locks', () => {
    const text = [
      "q.query('INSERT INTO posts (id) VALUES ($1)');",
      '`UPDATE post_targets t',
      '   SET run_at = now()`',
      "q.query('DELETE FROM users WHERE id = $1');",
      "q.query('INSERT INTO api_keys AS k (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET id = k.id');",
      "q.query('SELECT * FROM posts WHERE id = $1 FOR UPDATE');",
      "q.query('SELECT * FROM accounts FOR UPDATE OF a SKIP LOCKED');",
      '// update posts set nothing: prose',
      'q.query(`DELETE FROM ${table} WHERE id = $1`);',
      "q.query('TRUNCATE TABLE workers');",
    ].join('\n');
    expect(findWrites(text, 'src/modules/queue/service.ts').map((w) => `${w.line} ${w.verb} ${w.table}`))
      .toEqual(['1 INSERT INTO posts', '2 UPDATE post_targets', '4 DELETE FROM users', '5 INSERT INTO api_keys', '9 DELETE FROM ${...}', '10 TRUNCATE TABLE workers']);
  });

  it('fails a write from another module, and takes the declared second writer', () => {
    const table = new Map([['posts', { owner: 'modules/posts', also: ['publishing'] }]]);
    const at = (file: string): TableWrite[] => [{ table: 'posts', file, line: 1, verb: 'UPDATE' }];
    expect(violations(table, at('src/modules/posts/storage.ts'))).toEqual([]);
    expect(violations(table, at('src/publishing/targets-repository.ts'))).toEqual([]);
    expect(violations(table, at('src/modules/queue/service.ts'))).toEqual([
      "src/modules/queue/service.ts:1 UPDATE posts: written from modules/queue, but its writer is modules/posts (move the statement into modules/posts and call it there)"]);
    expect(violations(new Map(), at('src/modules/posts/storage.ts'))[0]).toMatch(/not in the owner table/);
  });

  it('reads the owner table of docs/architecture.md', () => {
    expect(owners.get('post_targets')).toEqual({ owner: 'modules/posts', also: ['publishing'] });
    expect(owners.get('publish_attempts')).toEqual({ owner: 'publishing', also: [] });
  });
});
