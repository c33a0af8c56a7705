/**
 * What PostgreSQL cannot store, found before it gets there (pure functions, no I/O).
 *
 * - NUL (U+0000): `text` and `jsonb` refuse it.
 * - Lone UTF-16 surrogates (a `\udfff` JSON escape with no partner): `jsonb` refuses the
 *   escape JSON.stringify writes for them ("Unicode low surrogate must follow a high
 *   surrogate"), and `text` would silently get U+FFFD instead. They are not Unicode text
 *   (https://www.unicode.org/glossary/#surrogate_code_point), so they are refused everywhere.
 * - Nesting deeper than {@link MAX_JSON_DEPTH}: jsonb parsing hits the server's stack limit.
 *
 * Each problem surfaced as a 500 from the database; these checks make it a 400 naming the field.
 */
import type { FieldErrors } from './errors.ts';

/** Deepest nesting accepted in a JSON body (free-form objects such as metadata and platformSpecificData). */
export const MAX_JSON_DEPTH = 64;

/** Lone surrogates: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

const NUL_MESSAGE = 'must not contain NUL (\\u0000) characters';
const SURROGATE_MESSAGE = 'must not contain lone UTF-16 surrogates (a \\ud800-\\udfff escape without its pair)';

/** Why PostgreSQL cannot store `s` (NUL or a lone surrogate), or null when it can. */
export function unstorableText(s: string): string | null {
  if (s.includes('\u0000')) return NUL_MESSAGE;
  if (HAS_LONE_SURROGATE.test(s)) return SURROGATE_MESSAGE;
  return null;
}

/** A field name as it appears in an error: NUL and lone surrogates written as JSON escapes. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this escapes
const printableKey = (k: string) => k.replace(/\u0000/g, '\\u0000').replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/**
 * Plain data as JSON.parse and the query-string parser build it, not Buffers, streams or
 * class instances. Fastify's query objects (fast-querystring) have a prototype whose own
 * prototype is null.
 */
function isPlainContainer(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Finds what PostgreSQL cannot store in parsed request data (a JSON body, a query
 * string, path parameters): strings and field names with NUL characters or lone
 * surrogates, and nesting deeper than {@link MAX_JSON_DEPTH}. Iterative, so a hostile
 * body cannot overflow the stack here either. Returns field errors (at most 20; field
 * paths like `platforms.0.platformSpecificData.title`, `(body)` for the value itself),
 * or null.
 */
export function unstorableJsonFields(value: unknown): FieldErrors | null {
  const fields: FieldErrors = {};
  let count = 0;
  const add = (at: Node, message: string) => { if (count++ < 20) (fields[pathOf(at) || '(body)'] ??= []).push(message); };
  const stack: Node[] = [{ value, key: '', parent: null, depth: 1 }];
  while (stack.length > 0 && count < 20) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      const problem = unstorableText(v);
      if (problem) add(node, problem);
    } else if (v !== null && typeof v === 'object' && isPlainContainer(v)) {
      if (node.depth > MAX_JSON_DEPTH) { add(node, `is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`); continue; }
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        const child: Node = { value: (v as Record<string, unknown>)[k], key: k, parent: node, depth: node.depth + 1 };
        const problem = unstorableText(k);
        if (problem) add(child, `field names ${problem}`);
        stack.push(child);
      }
    }
  }
  return count > 0 ? fields : null;
}

/** A value met while walking request data; its field path is built only when it is reported. */
interface Node { value: unknown; key: string; parent: Node | null; depth: number }

/** `a.b.0.c` for a node (the root is ''), keys written printable. */
function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | null = node; n && n.parent; n = n.parent) keys.push(printableKey(n.key));
  return keys.reverse().join('.');
}

/**
 * Finds numbers that are not finite (Infinity, -Infinity, NaN) in validated request
 * data. JSON has no such numbers, but schema validation coerces query-string (and
 * string) values like `Infinity` or `1e309` to them, and then skips `minimum`/`maximum`,
 * which only compare finite numbers. Returns field errors, or null.
 */
export function nonFiniteNumberFields(value: unknown): FieldErrors | null {
  const fields: FieldErrors = {};
  let count = 0;
  const stack: Node[] = [{ value, key: '', parent: null, depth: 1 }];
  while (stack.length > 0 && count < 20) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) { count++; (fields[pathOf(node) || '(body)'] ??= []).push('must be a finite number'); }
    } else if (v !== null && typeof v === 'object' && isPlainContainer(v) && node.depth <= MAX_JSON_DEPTH) {
      for (const k in v) {
        if (Object.hasOwn(v, k)) stack.push({ value: (v as Record<string, unknown>)[k], key: k, parent: node, depth: node.depth + 1 });
      }
    }
  }
  return count > 0 ? fields : null;
}
