/**
 * The adapter registry: which platforms Herald can publish to in this process, the
 * OAuth providers and platform app settings, and how each platform connects (its
 * {@link ConnectShape}, docs/decisions/0051-platform-connect-contract.md).
 * A platform whose app is not configured answers a clear error naming the missing
 * `HERALD_<PLATFORM>_*` settings.
 */
import { OAUTH_PLATFORMS, type AppPlatform, type OAuthPlatform } from '../shared/platforms.ts';
import { AppError } from '../core/errors.ts';
import { BlueskyAdapter } from './bluesky/adapter.ts';
import { blueskyConnectShape } from './bluesky/connect.ts';
import type { OAuthProvider, PlatformApp } from './oauth.ts';
import { TwitterAdapter } from './twitter/adapter.ts';
import { RedditAdapter } from './reddit/adapter.ts';
import { REDDIT_DEFAULTS, redditConnect, redditOAuth } from './reddit/oauth.ts';
import { PinterestAdapter } from './pinterest/adapter.ts';
import { PINTEREST_DEFAULTS, pinterestConnect, pinterestOAuth } from './pinterest/oauth.ts';
import { X_DEFAULTS, xConnect, xOAuth } from './twitter/oauth.ts';
import { ThreadsAdapter } from './threads/adapter.ts';
import { THREADS_DEFAULTS, threadsConnect, threadsOAuth } from './threads/oauth.ts';
import { LinkedInAdapter } from './linkedin/adapter.ts';
import { LINKEDIN_DEFAULTS, linkedinOAuth } from './linkedin/oauth.ts';
import { linkedinConnect } from './linkedin/connect.ts';
import { FacebookAdapter } from './facebook/adapter.ts';
import { FACEBOOK_DEFAULTS, facebookOAuth } from './facebook/oauth.ts';
import { facebookConnect } from './facebook/connect.ts';
import { InstagramAdapter } from './instagram/adapter.ts';
import { INSTAGRAM_DEFAULTS, instagramConnect, instagramOAuth } from './instagram/oauth.ts';
import { YouTubeAdapter } from './youtube/adapter.ts';
import { YOUTUBE_DEFAULTS, youtubeConnect, youtubeOAuth } from './youtube/oauth.ts';
import { TikTokAdapter } from './tiktok/adapter.ts';
import { MastodonAdapter } from './mastodon/adapter.ts';
import { mastodonConnect, mastodonOAuth } from './mastodon/oauth.ts';
import { TIKTOK_DEFAULTS, tiktokConnect, tiktokOAuth } from './tiktok/oauth.ts';
import { GoogleBusinessAdapter } from './googlebusiness/adapter.ts';
import { GOOGLEBUSINESS_DEFAULTS, googlebusinessOAuth } from './googlebusiness/oauth.ts';
import { googlebusinessConnect } from './googlebusiness/connect.ts';
import { googlebusinessResources } from './googlebusiness/resources.ts';
import { TelegramAdapter } from './telegram/adapter.ts';
import { TELEGRAM_API_URL } from './telegram/api.ts';
import { telegramConnectShape } from './telegram/connect.ts';
import type { ConnectShape, PlatformAdapter, PlatformId } from './types.ts';
import { NO_ACCOUNT_RESOURCES, type AccountResources } from './account-resources.ts';
import { facebookResources } from './facebook/resources.ts';
import { linkedinResources } from './linkedin/resources.ts';
import { pinterestResources } from './pinterest/resources.ts';
import { redditResources } from './reddit/resources.ts';
import { DiscordAdapter } from './discord/adapter.ts';
import { DISCORD_DEFAULTS, discordOAuth } from './discord/oauth.ts';
import { discordConnect } from './discord/connect.ts';

/**
 * What the registry reads from the configuration (src/config.ts's Config satisfies it): the
 * Bluesky entryway and each OAuth platform's app settings (`HERALD_<PLATFORM>_*`).
 */
export interface RegistryConfig {
  blueskyServiceUrl: string;
  /** Largest Bluesky image in bytes (default: the embed.images lexicon's 2,000,000). */
  blueskyMaxImageBytes?: number;
  /**
   * Sandbox mode (docs/decisions/0024-sandbox-facebook-stories.md): Herald's media URLs are plain
   * HTTP on loopback there, so the Facebook story rule "public HTTPS URL" is left to the simulator.
   */
  sandbox?: boolean;
  /** OAuth apps (`HERALD_<PLATFORM>_*`, a bot token where the platform publishes as the app's bot), and the API base URL of the bot-token platforms (`HERALD_TELEGRAM_API_URL`). */
  platformApps?: Partial<Record<AppPlatform, { clientId?: string; clientSecret?: string; apiBaseUrl?: string; authBaseUrl?: string; botToken?: string }>>;
}

export interface AdapterRegistry {
  get(platform: PlatformId): PlatformAdapter | undefined;
  /** @throws AppError BAD_REQUEST naming the platform when it has no adapter here. */
  require(platform: PlatformId): PlatformAdapter;
  /**
   * How the platform connects: plain OAuth, OAuth then a choice, an app password (bound to the
   * configured service, e.g. the Bluesky entryway). Every platform has one.
   */
  connectShape(platform: PlatformId): ConnectShape;
  /**
   * What the platform exposes about a connected account beyond publishing: the API's per-account
   * lists and selects, the clone step, rule settings read from the platform
   * (docs/decisions/0053-account-resources-contract.md). Every platform has one (most are empty).
   */
  resources(platform: PlatformId): AccountResources;
  /**
   * The OAuth provider and configured app of a platform.
   * @throws AppError BAD_REQUEST naming the missing settings, or the platform without OAuth support yet.
   */
  oauth(platform: OAuthPlatform): { provider: OAuthProvider; app: PlatformApp };
  /** The OAuth provider, when the platform has one (no configuration needed). */
  oauthProvider(platform: PlatformId): OAuthProvider | undefined;
  /** True for the sandbox registry (src/sandbox/index.ts): only sandbox accounts are refreshed and published. */
  readonly sandbox?: boolean;
}

interface ProviderEntry {
  provider: OAuthProvider;
  defaults: { apiBaseUrl: string; authBaseUrl: string };
  /** The platform publishes as the app's bot: `HERALD_<PLATFORM>_BOT_TOKEN` is required too. */
  botToken?: true;
}

const PROVIDERS: Partial<Record<OAuthPlatform, ProviderEntry>> = {
  twitter: { provider: xOAuth, defaults: X_DEFAULTS },
  reddit: { provider: redditOAuth, defaults: REDDIT_DEFAULTS },
  pinterest: { provider: pinterestOAuth, defaults: PINTEREST_DEFAULTS },
  threads: { provider: threadsOAuth, defaults: THREADS_DEFAULTS },
  linkedin: { provider: linkedinOAuth, defaults: LINKEDIN_DEFAULTS },
  tiktok: { provider: tiktokOAuth, defaults: TIKTOK_DEFAULTS },
  youtube: { provider: youtubeOAuth, defaults: YOUTUBE_DEFAULTS },
  facebook: { provider: facebookOAuth, defaults: FACEBOOK_DEFAULTS },
  instagram: { provider: instagramOAuth, defaults: INSTAGRAM_DEFAULTS },
  googlebusiness: { provider: googlebusinessOAuth, defaults: GOOGLEBUSINESS_DEFAULTS },
  discord: { provider: discordOAuth, defaults: DISCORD_DEFAULTS, botToken: true },
  // No fixed host: the app is the one registered on the account's instance (connect shape instance-oauth).
  mastodon: { provider: mastodonOAuth, defaults: { apiBaseUrl: '', authBaseUrl: '' } },
};

export function createAdapterRegistry(
  config: RegistryConfig,
  extra: Partial<Record<PlatformId, PlatformAdapter>> = {},
): AdapterRegistry {
  function appFor(platform: OAuthPlatform): PlatformApp {
    const entry = PROVIDERS[platform];
    if (!entry) throw new AppError('BAD_REQUEST', `Connecting ${platform} is not available on this server yet`, { platform });
    if (shapes[platform].kind === 'instance-oauth') {
      throw new AppError('BAD_REQUEST', `${platform} has no server-wide app: Herald registers its app on each instance (GET /v1/connect/${platform}?instance=...)`, { platform });
    }
    const cfg = config.platformApps?.[platform] ?? {};
    const env = `HERALD_${platform.toUpperCase()}`;
    const missing = [!cfg.clientId && `${env}_CLIENT_ID`, !cfg.clientSecret && `${env}_CLIENT_SECRET`, entry.botToken && !cfg.botToken && `${env}_BOT_TOKEN`].filter(Boolean) as string[];
    if (missing.length) {
      throw new AppError('BAD_REQUEST', `${platform} is not configured on this server: set ${missing.join(' and ')} (the ${platform} app's credentials)`,
        { platform, missingSettings: missing });
    }
    return {
      clientId: cfg.clientId!, clientSecret: cfg.clientSecret!,
      apiBaseUrl: (cfg.apiBaseUrl ?? entry.defaults.apiBaseUrl).replace(/\/+$/, ''),
      authBaseUrl: (cfg.authBaseUrl ?? entry.defaults.authBaseUrl).replace(/\/+$/, ''),
      ...(cfg.botToken ? { botToken: cfg.botToken } : {}),
    };
  }

  // Telegram's Bot API: api.telegram.org unless HERALD_TELEGRAM_API_URL names a self-hosted Bot API server (or the simulator).
  const telegramApi = (config.platformApps?.telegram?.apiBaseUrl ?? TELEGRAM_API_URL).replace(/\/+$/, '');
  // One line per platform (the type makes a new platform add its own).
  const shapes: Record<PlatformId, ConnectShape> = {
    bluesky: blueskyConnectShape(config.blueskyServiceUrl),
    twitter: xConnect, reddit: redditConnect, pinterest: pinterestConnect, threads: threadsConnect, tiktok: tiktokConnect,
    youtube: youtubeConnect, instagram: instagramConnect, facebook: facebookConnect, linkedin: linkedinConnect,
    googlebusiness: googlebusinessConnect,
    discord: discordConnect,
    telegram: telegramConnectShape(telegramApi),
    mastodon: mastodonConnect,
  };
  // The same for account resources (a platform with none says so).
  const resources: Record<PlatformId, AccountResources> = {
    facebook: facebookResources, linkedin: linkedinResources, pinterest: pinterestResources, reddit: redditResources(),
    bluesky: NO_ACCOUNT_RESOURCES, twitter: NO_ACCOUNT_RESOURCES, threads: NO_ACCOUNT_RESOURCES, tiktok: NO_ACCOUNT_RESOURCES,
    youtube: NO_ACCOUNT_RESOURCES, instagram: NO_ACCOUNT_RESOURCES, googlebusiness: googlebusinessResources, discord: NO_ACCOUNT_RESOURCES, telegram: NO_ACCOUNT_RESOURCES, mastodon: NO_ACCOUNT_RESOURCES,
  };

  const adapters = new Map<PlatformId, PlatformAdapter>();
  adapters.set('bluesky', new BlueskyAdapter(config.blueskyMaxImageBytes ? { maxImageBytes: config.blueskyMaxImageBytes } : {}) as unknown as PlatformAdapter);
  adapters.set('twitter', new TwitterAdapter(xOAuth, () => appFor('twitter')) as unknown as PlatformAdapter);
  adapters.set('reddit', new RedditAdapter(redditOAuth, () => appFor('reddit')) as unknown as PlatformAdapter);
  adapters.set('pinterest', new PinterestAdapter(pinterestOAuth, () => appFor('pinterest')) as unknown as PlatformAdapter);
  adapters.set('threads', new ThreadsAdapter(threadsOAuth, () => appFor('threads')) as unknown as PlatformAdapter);
  adapters.set('linkedin', new LinkedInAdapter(linkedinOAuth, () => appFor('linkedin')) as unknown as PlatformAdapter);
  adapters.set('tiktok', new TikTokAdapter(tiktokOAuth, () => appFor('tiktok')) as unknown as PlatformAdapter);
  adapters.set('youtube', new YouTubeAdapter(youtubeOAuth, () => appFor('youtube')) as unknown as PlatformAdapter);
  adapters.set('facebook', new FacebookAdapter(facebookOAuth, () => appFor('facebook'), { storyRequireHttps: !config.sandbox }) as unknown as PlatformAdapter);
  adapters.set('instagram', new InstagramAdapter(instagramOAuth, () => appFor('instagram')) as unknown as PlatformAdapter);
  adapters.set('googlebusiness', new GoogleBusinessAdapter(googlebusinessOAuth, () => appFor('googlebusiness')) as unknown as PlatformAdapter);
  adapters.set('discord', new DiscordAdapter(() => appFor('discord')) as unknown as PlatformAdapter);
  adapters.set('telegram', new TelegramAdapter({ apiBaseUrl: telegramApi }) as unknown as PlatformAdapter);
  adapters.set('mastodon', new MastodonAdapter() as unknown as PlatformAdapter);
  for (const [k, v] of Object.entries(extra)) adapters.set(k as PlatformId, v!);
  return {
    get: (p) => adapters.get(p),
    require(p) {
      const a = adapters.get(p);
      if (!a) throw new AppError('BAD_REQUEST', `Publishing to ${p} is not available on this server yet`, { platform: p });
      return a;
    },
    connectShape: (platform) => shapes[platform],
    resources: (platform) => resources[platform],
    oauth: (platform) => ({ provider: PROVIDERS[platform]!.provider, app: appFor(platform) }),
    oauthProvider: (platform) => ((OAUTH_PLATFORMS as readonly string[]).includes(platform) ? PROVIDERS[platform as OAuthPlatform]?.provider : undefined),
  };
}
