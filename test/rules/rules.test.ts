/**
 * The one rule table, walked rule by rule (docs/decisions/0026-one-rule-table.md): for every
 * platform, every rule of src/shared/rules/<platform>.ts has cases (test/rules/<platform>.cases.ts)
 * with an official source, and for each case the server's check (the adapter's `validate`, what
 * the API answers 400 with and the publisher checks again) and the composer's (checkPost) both
 * pass the post just inside the rule and both refuse the one just outside it, naming the rule.
 * What the platform itself answers is checked against its simulator in the platform's contract
 * test (test/contract/rule-cases.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { PublishRequest } from '../../src/platforms/types.ts';
import { PLATFORMS, type PlatformId } from '../../src/shared/platforms.ts';
import { checkPost } from '../../src/shared/post-rules.ts';
import { RULE_SETS } from '../../src/shared/rules/index.ts';
import { fullPost, type CasePost, type RuleCase } from './cases.ts';

const adapters = createAdapterRegistry({ blueskyServiceUrl: 'https://bsky.social' });
const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '../..');

/** Each platform's cases, from test/rules/<platform>.cases.ts (export `cases`). */
const CASES: Partial<Record<PlatformId, readonly RuleCase[]>> = {};
for (const p of PLATFORMS) {
  const file = path.join(here, `${p}.cases.ts`);
  if (fs.existsSync(file)) CASES[p] = ((await import(file)) as { cases: RuleCase[] }).cases;
}

const label = (c: RuleCase) => `${c.rule}${c.name ? ` (${c.name})` : ''}`;
const serverRules = (p: PlatformId, post: CasePost) => adapters.require(p).validate(fullPost(post) as PublishRequest).map((v) => v.rule);
const composerRules = (p: PlatformId, post: CasePost) => {
  const full = fullPost(post);
  return checkPost(p, full.text, full.mediaItems, { platformSpecificData: full.platformSpecificData, threadItems: full.threadItems, accountSettings: full.accountSettings, scheduledFor: full.scheduledFor }).map((x) => x.rule);
};

for (const platform of PLATFORMS) {
  const set = RULE_SETS[platform];
  if (!set) continue;
  describe(`${platform} rules`, () => {
    const cases = CASES[platform] ?? [];

    it('every rule has an official source and at least one case; every case names a rule of the table', () => {
      expect(cases.length, `test/rules/${platform}.cases.ts exports the cases`).toBeGreaterThan(0);
      const ids = set.rules.map((r) => r.id);
      expect(new Set(ids).size, 'rule ids are unique').toBe(ids.length);
      for (const r of set.rules) {
        expect(r.id.startsWith(`${platform}.`), r.id).toBe(true);
        expect(r.summary.length, r.id).toBeGreaterThan(10);
        if (r.source.startsWith('docs/')) expect(fs.existsSync(path.join(root, r.source.split('#')[0])), `${r.id}: ${r.source} exists`).toBe(true);
        else expect(r.source, r.id).toMatch(/^https:\/\/\S+$/);
        expect(cases.some((c) => c.rule === r.id), `${r.id} has a case`).toBe(true);
      }
      for (const c of cases) expect(ids, `case ${label(c)} names a rule of the table`).toContain(c.rule);
    });

    it.each(cases.map((c) => [label(c), c] as const))('%s: server and composer pass the post just inside, refuse the one just outside', (_name, c) => {
      expect(serverRules(platform, c.inside), 'server, inside').not.toContain(c.rule);
      expect(composerRules(platform, c.inside), 'composer, inside').not.toContain(c.rule);
      expect(serverRules(platform, c.outside), 'server, outside').toContain(c.rule);
      expect(composerRules(platform, c.outside), 'composer, outside').toContain(c.rule);
      // Whatever else the check reports is a documented rule of the table too.
      const documented = set.rules.map((r) => r.id);
      for (const id of [...serverRules(platform, c.inside), ...serverRules(platform, c.outside)]) expect(documented, `${id} is in the ${platform} table`).toContain(id);
    });
  });
}
