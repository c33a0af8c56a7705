/**
 * Mentions in internal comments (docs/decisions/0064-target-schedule-and-calendar-approvals.md):
 * `@name` in a comment's text names a member of the tenant's team. A member answers to their
 * email address (`@ana@example.com`), its local part (`@ana`), their full name (`@Ana Lima`) and
 * their first name (`@Ana`), case-insensitively; a handle two members share (two "Ana"s) names
 * neither, so `@` never tells the wrong person. A handle matches only as a whole word: it is not
 * preceded by a letter, digit or `@`-handle character and not followed by one (`@anabel` is not
 * `@ana`). Where several handles match at one `@`, the longest wins (`@Ana Lima` over `@Ana`).
 */
import type { Queryable } from '../../storage/db.ts';

/** A team member as mentions see them. */
export interface TeamMember {
  id: string;
  email: string;
  name: string | null;
}

/** Characters that continue a handle: a match must not be followed by one (nor preceded, before the `@`). */
const HANDLE_CHAR = /[\p{L}\p{N}_.+-]/u;

/** Every handle of each member, those two members share left out. Keys are lower-case. */
export function mentionHandles(members: readonly TeamMember[]): Map<string, string> {
  const owners = new Map<string, Set<string>>();
  const add = (handle: string, id: string) => {
    const h = handle.trim().toLowerCase();
    if (h.length < 2) return;
    const set = owners.get(h) ?? new Set<string>();
    set.add(id);
    owners.set(h, set);
  };
  for (const m of members) {
    add(m.email, m.id);
    add(m.email.split('@')[0], m.id);
    const name = (m.name ?? '').trim().replace(/\s+/g, ' ');
    if (name) {
      add(name, m.id);
      add(name.split(' ')[0], m.id);
    }
  }
  const out = new Map<string, string>();
  for (const [h, ids] of owners) if (ids.size === 1) out.set(h, [...ids][0]);
  return out;
}

/**
 * The ids of the members that `text` mentions with `@handle` (see the file's comment), in the order
 * of their first mention, without repeats.
 */
export function parseMentions(text: string, members: readonly TeamMember[]): string[] {
  const handles = mentionHandles(members);
  if (handles.size === 0) return [];
  // Longest first, so that the longest handle at an `@` wins.
  const sorted = [...handles.keys()].sort((a, b) => b.length - a.length);
  const lower = text.toLowerCase().replace(/\s+/g, ' ');
  const source = text.replace(/\s+/g, ' ');
  const found: string[] = [];
  for (let i = source.indexOf('@'); i !== -1; i = source.indexOf('@', i + 1)) {
    if (i > 0 && HANDLE_CHAR.test(source[i - 1])) continue; // the `@` of an email address in the text, not a mention
    const rest = lower.slice(i + 1);
    const handle = sorted.find((h) => rest.startsWith(h) && !HANDLE_CHAR.test(rest.charAt(h.length) || ' ')
      // A trailing dot ends a sentence ("thanks @ana."), so it does not continue the handle.
      || (rest.startsWith(h) && rest.charAt(h.length) === '.' && !HANDLE_CHAR.test(rest.charAt(h.length + 1) || ' ')));
    if (!handle) continue;
    const id = handles.get(handle)!;
    if (!found.includes(id)) found.push(id);
  }
  return found;
}

/** The tenant's team (the owner and every member), for {@link parseMentions}. */
export async function teamMembers(q: Queryable, tenantId: string): Promise<TeamMember[]> {
  const { rows } = await q.query<TeamMember>('SELECT id, email, name FROM users WHERE tenant_id = $1 ORDER BY created_at, id', [tenantId]);
  return rows.map((r) => ({ ...r, id: r.id.trim() }));
}
