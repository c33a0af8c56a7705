/**
 * API key permissions: `<resource>:<read|write>`. A key created without an explicit
 * list gets every permission. `write` does not imply `read`. Pure: shared with the web app
 * (the API keys page).
 */
export const RESOURCES = [
  'posts', 'profiles', 'accounts', 'media', 'users', 'api-keys', 'usage', 'queue', 'analytics', 'invites', 'reddit', 'webhooks',
] as const;
export type Resource = (typeof RESOURCES)[number];
/**
 * `posts:approve` (decision 0059): approving posts, requesting changes, managing review links.
 * The key or session needs it, and the profile's approval rule names who may approve (the owner, listed members).
 */
export type Permission = `${Resource}:${'read' | 'write'}` | 'posts:approve';

export const ALL_PERMISSIONS: Permission[] = [...RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as Permission[]), 'posts:approve'];

export function isPermission(v: unknown): v is Permission {
  return typeof v === 'string' && (ALL_PERMISSIONS as string[]).includes(v);
}
