/**
 * The platform ids, written once: the API's enums, the bulk CSV, the registry, the web app
 * and the simulators read them from here. Pure (no I/O, no Node APIs): shared with the web app.
 */

export const PLATFORMS = [
  'facebook', 'instagram', 'linkedin', 'twitter', 'threads', 'tiktok', 'youtube', 'pinterest', 'reddit', 'bluesky', 'googlebusiness', 'discord',
  'telegram', 'mastodon',
] as const;
export type PlatformId = (typeof PLATFORMS)[number];

export function isPlatformId(v: unknown): v is PlatformId {
  return typeof v === 'string' && (PLATFORMS as readonly string[]).includes(v);
}

/** Platforms connected with an app password instead of OAuth. */
export const APP_PASSWORD_PLATFORMS = ['bluesky'] as const satisfies readonly PlatformId[];
/** Platforms connected with a bot token the user pastes (connect shape `bot-token`): no OAuth app, only an API base URL (`HERALD_<PLATFORM>_API_URL`). */
export const BOT_TOKEN_PLATFORMS = ['telegram'] as const satisfies readonly PlatformId[];
export type BotTokenPlatform = (typeof BOT_TOKEN_PLATFORMS)[number];
export type OAuthPlatform = Exclude<PlatformId, (typeof APP_PASSWORD_PLATFORMS)[number] | BotTokenPlatform>;
/** Platforms connected through OAuth: every platform but the app-password and bot-token ones, in the same order. */
export const OAUTH_PLATFORMS: readonly OAuthPlatform[] = PLATFORMS.filter(
  (p): p is OAuthPlatform => !(APP_PASSWORD_PLATFORMS as readonly string[]).includes(p) && !(BOT_TOKEN_PLATFORMS as readonly string[]).includes(p),
);
/**
 * Platforms whose API base URL (and, for OAuth ones, app credentials) come from the configuration
 * (`HERALD_<PLATFORM>_API_URL`, ...) and that the sandbox points at a simulator: the OAuth platforms and the bot-token ones.
 */
export type AppPlatform = OAuthPlatform | BotTokenPlatform;
export const APP_PLATFORMS: readonly AppPlatform[] = [...OAUTH_PLATFORMS, ...BOT_TOKEN_PLATFORMS];

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
  tiktok: 'TikTok', youtube: 'YouTube', pinterest: 'Pinterest', reddit: 'Reddit', bluesky: 'Bluesky',
  googlebusiness: 'Google Business Profile',
  discord: 'Discord',
  telegram: 'Telegram',
  mastodon: 'Mastodon',
};
