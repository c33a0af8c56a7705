/**
 * A platform is one package behind one contract (docs/architecture.md, "Adding a platform"):
 * generic code names no platform. Every string literal whose text is a platform id (the ids of
 * src/shared/platforms.ts) in src/modules/, src/publishing/, src/http/, src/route-kit/,
 * src/sandbox/ and src/services.ts, and in the dashboard's composer (web/src/dashboard/composer/,
 * pages/Composer.tsx) and account cards (pages/Profiles.tsx), is a finding: a comparison
 * (`platform === 'youtube'`), a list (`['reddit', 'pinterest']`, `new Set([...])`), a `case`, an
 * argument; and so is a key or member named as a platform (`{ instagram: ... }`, `TABLE.reddit`). What a platform does differently is data in its own places (src/platforms/<name>/, the
 * registry, the shared tables of src/shared/) that the generic code reads. Comments are not code:
 * the file is parsed with the TypeScript compiler and only literals count. Unit tests beside the
 * code (*.test.ts) are not scanned.
 *
 * The exceptions are named below with their reason and the exact number of literals they allow,
 * so that a new literal in an excepted file fails too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../src/shared/platforms.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = [
  'src/modules', 'src/publishing', 'src/http', 'src/route-kit', 'src/sandbox', 'src/services.ts',
  // The dashboard's composer and the account cards read the shared tables too.
  'web/src/dashboard/composer', 'web/src/dashboard/pages/Composer.tsx', 'web/src/dashboard/pages/Profiles.tsx',
];

/** One platform id written as a literal in code. */
export interface PlatformLiteral { file: string; line: number; id: string; kind: string }

/** What the literal is part of, in words (for the failure message). */
function kindOf(node: ts.Node): string {
  const p = node.parent;
  if (ts.isBinaryExpression(p) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(p.operatorToken.kind)) return 'comparison';
  if (ts.isArrayLiteralExpression(p)) return 'list';
  if (ts.isCaseClause(p)) return 'case';
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return 'argument';
  if (ts.isPropertyAssignment(p)) return p.name === node ? 'key' : 'value';
  if (ts.isLiteralTypeNode(p)) return 'type';
  return ts.SyntaxKind[p.kind];
}

/** The platform-id literals of one file's text (comments and the text of longer strings are not literals of an id). */
export function findPlatformLiterals(text: string, file: string, ids: readonly string[] = PLATFORMS): PlatformLiteral[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: PlatformLiteral[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && ids.includes(node.text)) {
      out.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, id: node.text, kind: kindOf(node) });
    }
    // A key or a member named as a platform (`{ youtube: ... }`, `TABLE.reddit`): a table of platforms in generic code.
    const name = (ts.isPropertyAssignment(node) || ts.isPropertySignature(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name) ? node.name
      : ts.isPropertyAccessExpression(node) ? node.name : undefined;
    if (name && ids.includes(name.text)) {
      out.push({ file, line: source.getLineAndCharacterOfPosition(name.getStart()).line + 1, id: name.text, kind: ts.isPropertyAccessExpression(node) ? 'member' : 'key' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * The justified exceptions: file -> platform id -> how many literals, and why. Nothing else in the
 * scanned places may name a platform.
 */
const PDS_ACCOUNT = 'the `bluesky` field of GET /v1/sandbox (the ready-made account on the sandbox\'s Bluesky PDS, see src/sandbox/index.ts), on the wire as the dashboard reads it';
const EXCEPTIONS: Record<string, { ids: Record<string, number>; why: string }> = {
  'src/modules/sandbox/routes.ts': { ids: { bluesky: 1 }, why: PDS_ACCOUNT },
  'web/src/dashboard/pages/Profiles.tsx': { ids: { bluesky: 1 }, why: PDS_ACCOUNT },
  'src/sandbox/index.ts': {
    // Thirteen simulators, one line each; Bluesky's local PDS ten times: the option that starts it (its type and its
    // read), the sandbox's `bluesky` account (two types, the log line, the returned object, the description), its
    // state, the error's list and "not simulated".
    ids: Object.fromEntries(PLATFORMS.map((p) => [p, p === 'bluesky' ? 10 : 1])),
    why: 'SANDBOX_SIMULATORS is the one registration line per simulator that the recipe names: the simulators live in sim/, '
      + 'which only the sandbox may import (so the table cannot sit in src/platforms/); Bluesky is the one platform served by '
      + 'a local server of its own (the @atproto/dev-env PDS) instead of a simulator.',
  },
};

function filesUnder(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (statSync(abs).isFile()) return [rel];
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.posix.join(rel, f.split(path.sep).join('/')));
}

describe('generic code names no platform', () => {
  it('the detector finds comparisons, lists, sets, cases, arguments, keys and members, and ignores comments and longer strings', () => {
    const planted = [
      "// if (platform === 'youtube') is only a comment",
      '/* and so is [\'reddit\', \'pinterest\'] */',
      "const note = 'posts to youtube and reddit';",
      "if (t.platform !== 'youtube') return;",
      "const TITLE = ['youtube', 'reddit'];",
      "const NO_CARD = new Set(['instagram']);",
      "switch (p) { case 'mastodon': break; }",
      "psdOf('pinterest');",
      'const T = { telegram: 1 };',
      'use(LIMITS.discord);',
    ].join('\n');
    expect(findPlatformLiterals(planted, 'planted.ts').map((f) => `${f.line}:${f.id}:${f.kind}`)).toEqual([
      '4:youtube:comparison', '5:youtube:list', '5:reddit:list', '6:instagram:list', '7:mastodon:case', '8:pinterest:argument',
      '9:telegram:key', '10:discord:member',
    ]);
  });

  it('no platform id literal in the generic code beyond the named exceptions', () => {
    const found = SCANNED.flatMap(filesUnder).flatMap((f) => findPlatformLiterals(readFileSync(path.join(ROOT, f), 'utf8'), f));
    const counts = new Map<string, number>();
    for (const f of found) counts.set(`${f.file} ${f.id}`, (counts.get(`${f.file} ${f.id}`) ?? 0) + 1);
    const unexpected = found.filter((f) => (EXCEPTIONS[f.file]?.ids[f.id] ?? 0) === 0);
    expect(unexpected.map((f) => `${f.file}:${f.line} names '${f.id}' (${f.kind}): make it platform data (src/platforms/<name>/, the registry or a table in src/shared/)`)).toEqual([]);
    // An excepted file holds exactly the literals its reason covers (one more is a new branch).
    for (const [file, { ids }] of Object.entries(EXCEPTIONS)) {
      const actual = Object.fromEntries(Object.keys(ids).map((id) => [id, counts.get(`${file} ${id}`) ?? 0]));
      expect(actual, `${file}: ${EXCEPTIONS[file].why}`).toEqual(ids);
    }
  });
});
