/**
 * API key permissions: `<resource>:<read|write>`. A key created without an explicit
 * list gets every permission. `write` does not imply `read`. Pure: shared with the web app
 * (the API keys page).
 */
export const RESOURCES = [
  'posts', 'profiles', 'accounts', 'media', 'users', 'api-keys', 'usage', 'queue', 'analytics', 'invites', 'reddit', 'webhooks',
] as const;
export type Resource = (typeof RESOURCES)[number];
export type Permission = `${Resource}:${'read' | 'write'}`;

export const ALL_PERMISSIONS: Permission[] = RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as Permission[]);

export function isPermission(v: unknown): v is Permission {
  return typeof v === 'string' && (ALL_PERMISSIONS as string[]).includes(v);
}
