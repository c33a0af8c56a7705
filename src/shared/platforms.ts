/**
 * The platform ids, written once: the API's enums, the bulk CSV, the registry, the web app
 * and the simulators read them from here. Pure (no I/O, no Node APIs): shared with the web app.
 */

export const PLATFORMS = [
  'facebook', 'instagram', 'linkedin', 'twitter', 'threads', 'tiktok', 'youtube', 'pinterest', 'reddit', 'bluesky', 'mastodon',
] as const;
export type PlatformId = (typeof PLATFORMS)[number];

export function isPlatformId(v: unknown): v is PlatformId {
  return typeof v === 'string' && (PLATFORMS as readonly string[]).includes(v);
}

/** Platforms connected with an app password instead of OAuth. */
export const APP_PASSWORD_PLATFORMS = ['bluesky'] as const satisfies readonly PlatformId[];
export type OAuthPlatform = Exclude<PlatformId, (typeof APP_PASSWORD_PLATFORMS)[number]>;
/** Platforms connected through OAuth: every platform but the app-password ones, in the same order. */
export const OAUTH_PLATFORMS: readonly OAuthPlatform[] = PLATFORMS.filter(
  (p): p is OAuthPlatform => !(APP_PASSWORD_PLATFORMS as readonly string[]).includes(p),
);

/**
 * Platforms connected through an instance the user names (connect shape `instance-oauth`,
 * decision 0055), with the instance field as every connect form asks for it.
 */
export const INSTANCE_PLATFORMS: Readonly<Partial<Record<PlatformId, { label: string; hint: string; placeholder: string }>>> = {
  mastodon: { label: 'Mastodon server', hint: 'the domain of your server, e.g. mastodon.social', placeholder: 'mastodon.social' },
};

/** Display names (dashboard, docs, pricing). */
export const PLATFORM_LABELS: Record<PlatformId, string> = {
  facebook: 'Facebook', instagram: 'Instagram', linkedin: 'LinkedIn', twitter: 'X (Twitter)', threads: 'Threads',
  tiktok: 'TikTok', youtube: 'YouTube', pinterest: 'Pinterest', reddit: 'Reddit', bluesky: 'Bluesky', mastodon: 'Mastodon',
};
