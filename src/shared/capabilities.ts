/**
 * Each platform's capabilities and numeric limits, as data: the one source for the adapters'
 * `validate` (src/platforms/<platform>/adapter.ts imports its numbers from here), the bulk CSV
 * and the web composer (src/shared/post-rules.ts checks a post against these). Pure: no I/O,
 * no Node APIs, importable by the browser build.
 *
 * Where a figure is marked UNCONFIRMED the platform's own documentation was not found to state
 * it; the adapter option that overrides it (if any) is named.
 */
import { PLATFORMS, type PlatformId } from './platforms.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** `UTF-16 units`: a JavaScript string's length (TikTok: an emoji outside the BMP counts 2). */
export type TextUnit = 'characters' | 'graphemes' | 'weighted characters' | 'UTF-16 units';

/** Capabilities that drive validation, the bulk CSV and the composer. */
export interface PlatformCapabilities {
  /** Maximum text length in the platform's own unit (graphemes for Bluesky, weighted for X). */
  maxTextLength: number;
  /** Unit of maxTextLength, for error messages. */
  textUnit: TextUnit;
  maxImages: number;
  maxVideos: number;
  threads: boolean;
  firstComment: boolean;
  /** The platform's documentation page the rules come from. */
  docsUrl: string;
  /**
   * The platform schedules natively: a scheduled target runs at once (run_at = now) and the
   * adapter hands the post's scheduledFor to the platform (YouTube: private + publishAt).
   */
  uploadsAhead?: boolean;
}

/** What a post may carry on one platform, beyond {@link PlatformCapabilities}; read by the composer's checks. */
export interface PlatformLimits extends PlatformCapabilities {
  /** Extra cap on the text in UTF-8 bytes (Bluesky 3,000; YouTube's description is 5,000 bytes). */
  maxTextBytes?: number;
  /** Threads counts an emoji as its UTF-8 bytes. */
  emojiCountsAsBytes?: boolean;
  /** TikTok photo posts take a longer description than video captions. */
  maxTextLengthPhotos?: number;
  /** Reddit: the first line is the title (at most this many characters, required); the rest is the body the text limit applies to. */
  titleFromFirstLine?: { max: number };
  maxHashtags?: number;
  /** Most media items of any kind in one post (carousels), when less than images + videos. */
  maxMediaItems?: number;
  /** Images (photos or GIFs) allowed next to a video: 0 = images and videos cannot be mixed; Pinterest takes one image as the video's cover. */
  maxImagesWithVideo: number;
  /** How a GIF counts: as an image, as a video (X: one GIF alone), or not accepted. */
  gif: 'image' | 'video' | 'refused';
  /** Documents (PDF) per post: LinkedIn 1, else 0. */
  maxDocuments: number;
  /** Media the post cannot go without. */
  mediaRequired?: 'image-or-video' | 'video';
  /** First comment limit in characters, when firstComment is supported. */
  firstCommentMaxLength?: number;
  /** A setting the post needs: in platformSpecificData, else the account's default. */
  requiredSetting?: { field: string; accountSetting: string; label: string };
  /**
   * The platform takes `#hashtags` / `@mentions` as caption text (decision 0022): the post's
   * `hashtags` and `mentions` missing from the text are added to it on these platforms only.
   * Not on Reddit, Discord (a mention is `<@user id>`, https://discord.com/developers/docs/reference#message-formatting)
   * or Google Business Profile; Facebook, LinkedIn and Pinterest do not link a plain `@name`.
   */
  hashtagsInText?: boolean;
  mentionsInText?: boolean;
  /**
   * Image formats the platform refuses that Herald converts to JPEG (POST /v1/media/{id}/convert)
   * when the composer adds such an image for it; `reason` ends the composer's note "Converted from
   * PNG to JPEG <reason>".
   */
  convertToJpeg?: { formats: readonly string[]; reason: string };
  /** Per-item size caps in bytes (defaults of the adapter options where the adapter has one). */
  imageMaxBytes?: number;
  gifMaxBytes?: number;
  videoMaxBytes?: number;
}

// Facebook: https://developers.facebook.com/docs/pages-api/posts
/** Post text limit used by schedulers (no official figure found: UNCONFIRMED). */
export const FACEBOOK_MAX_TEXT = 63_206;
/** First comment limit ("about 8,000"). */
export const FACEBOOK_MAX_FIRST_COMMENT = 8_000;
/** Most photos in one feed post (`attached_media`); UNCONFIRMED, FacebookOptions.maxPhotos overrides. */
export const FACEBOOK_MAX_PHOTOS = 10;
/** Feed photos: JPG/PNG under 4 MB (error subcode 1366046 otherwise). */
export const FACEBOOK_PHOTO_MAX_BYTES = 4 * MB;
/** Story video up to 4 GB. */
export const FACEBOOK_STORY_VIDEO_MAX_BYTES = 4 * GB;
/** Story photo up to 10 MB (Page Stories API, English page; older translations say 4 MB). */
export const FACEBOOK_STORY_PHOTO_MAX_BYTES = 10 * MB;
/** Video stories last 3 to 60 seconds (Page Stories API: "video stories ... 60 seconds" is the binding sentence). */
export const FACEBOOK_STORY_VIDEO_MIN_SECONDS = 3;
export const FACEBOOK_STORY_VIDEO_MAX_SECONDS = 60;
/** Video stories: at least 540 x 960 pixels (Page Stories API; 1080 x 1920 and 9:16 are recommended). */
export const FACEBOOK_STORY_VIDEO_MIN_WIDTH = 540;
export const FACEBOOK_STORY_VIDEO_MIN_HEIGHT = 960;

// Instagram: https://developers.facebook.com/docs/instagram-platform/content-publishing
export const INSTAGRAM_MAX_CAPTION = 2_200;
export const INSTAGRAM_MAX_HASHTAGS = 30;
/** @-mentions per caption (IG User Media reference). */
export const INSTAGRAM_MAX_MENTIONS = 20;
/** Collaborators per post (collaborators reference; not on stories). */
export const INSTAGRAM_MAX_COLLABORATORS = 3;
/** Feed and carousel image aspect ratio, width / height: 4:5 to 1.91:1 (IG User Media reference). */
export const INSTAGRAM_IMAGE_MIN_ASPECT = { w: 4, h: 5 } as const;
export const INSTAGRAM_IMAGE_MAX_ASPECT = { w: 191, h: 100 } as const;
/** Story and carousel videos: at most 60 seconds (IG User Media reference; reels have their own bounds). */
export const INSTAGRAM_STORY_VIDEO_MAX_SECONDS = 60;
export const INSTAGRAM_MAX_FIRST_COMMENT = 2_200;
export const INSTAGRAM_IMAGE_MAX_BYTES = 8 * MB;
export const INSTAGRAM_THUMBNAIL_MAX_BYTES = 8 * MB;
/** Carousel size, 2 to this (UNCONFIRMED; InstagramOptions.carouselMax overrides). */
export const INSTAGRAM_CAROUSEL_MAX = 10;
/** Largest reel (300 MB on the English page, 1 GB elsewhere; InstagramOptions.videoMaxBytes overrides). */
export const INSTAGRAM_VIDEO_MAX_BYTES = 300 * MB;
/** Reel duration bounds in seconds (third party). */
export const INSTAGRAM_VIDEO_MIN_SECONDS = 3;
export const INSTAGRAM_VIDEO_MAX_SECONDS = 15 * 60;

// LinkedIn: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api
export const LINKEDIN_MAX_TEXT = 3000;
export const LINKEDIN_MAX_FIRST_COMMENT = 1250;
/** `documentTitle` of a document post: at most 400 characters (Herald's own bound, rule `linkedin.document.title`). */
export const LINKEDIN_DOCUMENT_TITLE_MAX = 400;
export const LINKEDIN_MAX_IMAGES = 20;
/** Document cap: 100 MB (third party). */
export const LINKEDIN_DOCUMENT_MAX_BYTES = 100 * MB;
/** Video cap: 500 MB, 3 s to 30 min (third party). */
export const LINKEDIN_VIDEO_MAX_BYTES = 500 * MB;
export const LINKEDIN_VIDEO_MIN_SECONDS = 3;
export const LINKEDIN_VIDEO_MAX_SECONDS = 30 * 60;
/** Images: fewer than this many pixels (width x height), JPG, GIF or PNG, GIFs up to 250 frames (Images API). */
export const LINKEDIN_IMAGE_MAX_PIXELS = 36_152_320;
export const LINKEDIN_GIF_MAX_FRAMES = 250;
/** The Images API's page, which states the image rules. */
export const LINKEDIN_IMAGES_API_URL = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api';

// X: https://docs.x.com/x-api/posts/create-post and https://docs.x.com/x-api/media/quickstart/best-practices
export const X_MAX_WEIGHTED_LENGTH = 280;
export const X_MAX_IMAGES = 4;
/**
 * Image, GIF and video size caps in bytes, and the video duration range for accounts
 * without Premium. Premium accounts may post up to 16 GB / 125 min; X checks that itself.
 */
export const X_IMAGE_MAX_BYTES = 5 * MB;
export const X_GIF_MAX_BYTES = 15 * MB;
export const X_VIDEO_MAX_BYTES = 8 * GB;
export const X_VIDEO_MIN_SECONDS = 0.5;
export const X_VIDEO_MAX_SECONDS = 20 * 60;

// Threads: https://developers.facebook.com/documentation/threads/posts
export const THREADS_MAX_TEXT = 500;
/** Carousels take 2 to 20 items (Threads posts page; third-party guides said 10 or 20; ThreadsOptions.carouselMax overrides). */
export const THREADS_CAROUSEL_MAX = 20;
/** Image cap in bytes (8 MB; third-party mirror of the media guidelines). */
export const THREADS_IMAGE_MAX_BYTES = 8 * MB;
/** Video caps: 1 GB and 5 minutes (third-party mirror). */
export const THREADS_VIDEO_MAX_BYTES = 1 * GB;
export const THREADS_VIDEO_MAX_SECONDS = 300;
/** Links per post: more than 5 fail with THREADS_API__LINK_LIMIT_EXCEEDED (Threads text attachments page, since 2025-12-22). */
export const THREADS_MAX_LINKS = 5;

// TikTok: https://developers.tiktok.com/doc/content-posting-api-reference-direct-post
/** Caption (video `title`) limit: 2,200 characters (third-party sources). */
export const TIKTOK_VIDEO_CAPTION_MAX = 2200;
/** Photo `description` limit: 4,000 characters (third-party sources). */
export const TIKTOK_PHOTO_DESCRIPTION_MAX = 4000;
export const TIKTOK_PHOTO_MAX_ITEMS = 35;
export const TIKTOK_PHOTO_MAX_BYTES = 20 * MB;
/** Largest video (4 GB, 1 GB or 10 GB by source; TikTokOptions.maxVideoBytes overrides). */
export const TIKTOK_VIDEO_MAX_BYTES = 4 * GB;

// YouTube: https://developers.google.com/youtube/v3/docs/videos/insert
export const YOUTUBE_TITLE_MAX = 100;
export const YOUTUBE_DESCRIPTION_MAX_BYTES = 5000;
export const YOUTUBE_FIRST_COMMENT_MAX = 10_000;
export const YOUTUBE_TAG_MAX = 100;
export const YOUTUBE_TAGS_MAX_TOTAL = 500;
/** Videos of this many seconds or less are Shorts. */
export const YOUTUBE_SHORT_MAX_SECONDS = 180;
/** Thumbnail cap: 2 MB per the v3 docs page; newer reference pages say 50 MB (configurable). */
export const YOUTUBE_THUMBNAIL_MAX_BYTES = 2 * MB;
/** videos.insert accepts files up to 256 GB. */
export const YOUTUBE_VIDEO_MAX_BYTES = 256 * GB;

// Pinterest: https://developers.pinterest.com/docs/api/v5/pins-create/
export const PINTEREST_TITLE_MAX = 100;
export const PINTEREST_DESCRIPTION_MAX = 800;
export const PINTEREST_ALT_TEXT_MAX = 500;
export const PINTEREST_LINK_MAX = 2048;
export const PINTEREST_CAROUSEL_MIN = 2;
export const PINTEREST_CAROUSEL_MAX = 5;
/** Image formats Pinterest takes (by MIME subtype): BMP, JPEG, PNG, TIFF, GIF, WebP (third-party media guides; UNCONFIRMED on the official page). */
export const PINTEREST_IMAGE_FORMATS = ['bmp', 'jpeg', 'png', 'tiff', 'gif', 'webp'] as const;
/** Image size cap in bytes: 20 MB per a third-party guide (UNCONFIRMED officially). */
export const PINTEREST_IMAGE_MAX_BYTES = 20 * MB;
/** Video size cap in bytes: 2 GB, one mirror says 1 GB (CONFLICT); change here if Pinterest refuses. */
export const PINTEREST_VIDEO_MAX_BYTES = 2 * GB;
/** Video duration bounds in seconds, 4 s to 15 min (third party, UNCONFIRMED); checked when the duration is known. */
export const PINTEREST_VIDEO_MIN_SECONDS = 4;
export const PINTEREST_VIDEO_MAX_SECONDS = 15 * 60;

// Reddit: https://www.reddit.com/dev/api#POST_api_submit
export const REDDIT_TITLE_MAX = 300;
/** Subreddit names: at most 21 letters, digits and underscores (rule `reddit.subreddit.name`). */
export const REDDIT_SUBREDDIT_NAME_MAX = 21;
/** Self-post body limit in characters: commonly cited 40,000, UNCONFIRMED in Reddit's API docs. */
export const REDDIT_SELFTEXT_MAX = 40_000;
export const REDDIT_FLAIR_ID_MAX = 36;
export const REDDIT_FLAIR_TEXT_MAX = 64;
/** Images in a gallery post: 2 to 20 (20 is the commonly cited maximum, UNCONFIRMED). */
export const REDDIT_GALLERY_MAX = 20;
/** Image formats Reddit's media upload takes (by MIME subtype): JPEG, PNG, GIF. */
export const REDDIT_IMAGE_FORMATS = ['jpeg', 'png', 'gif'] as const;
/** Image upload cap in bytes: 20 MB is the commonly cited figure, UNCONFIRMED. */
export const REDDIT_IMAGE_MAX_BYTES = 20 * MB;

// Bluesky: https://docs.bsky.app/docs/advanced-guides/posts and the app.bsky.feed.post lexicon
export const BLUESKY_DOCS_URL = 'https://docs.bsky.app/docs/advanced-guides/posts';
/** Text: at most 300 graphemes and 3,000 UTF-8 bytes (app.bsky.feed.post lexicon). */
export const BLUESKY_MAX_GRAPHEMES = 300;
export const BLUESKY_MAX_TEXT_BYTES = 3000;
/** Per-image limit in bytes: `maxSize` of app.bsky.embed.images (2,000,000 since 2025; formerly 1,000,000). */
export const BLUESKY_MAX_IMAGE_BYTES = 2_000_000;
export const BLUESKY_MAX_IMAGES = 4;
/** `langs` on a post: at most 3 BCP-47 tags (app.bsky.feed.post lexicon). */
export const BLUESKY_MAX_LANGS = 3;

// Google Business Profile: https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts
/** The v4 localPosts reference, the page the post fields and enums come from. */
export const GOOGLEBUSINESS_DOCS_URL = 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts';
/**
 * `summary` limit: 1,500 characters, the Business Profile Help Center's figure for posts
 * (https://support.google.com/business/answer/7342169); UNVERIFIED: the API reference states none.
 */
export const GOOGLEBUSINESS_SUMMARY_MAX = 1_500;
/** One photo or one video per local post (the composer and Google's own post editor take one; the API reference states no count: UNCONFIRMED, strict reading). */
export const GOOGLEBUSINESS_MAX_MEDIA = 1;
/**
 * Photos: JPG or PNG, 10 KB to 5 MB, at least 250 x 250 pixels: the Business Profile Help Center's
 * photo guidelines (https://support.google.com/business/answer/6103862), UNVERIFIED here (that page
 * was not read for this table; third-party guides agree on JPG/PNG and 10 KB to 5 MB; the API
 * reference states no figure). Strict reading.
 */
export const GOOGLEBUSINESS_PHOTO_MIN_BYTES = 10 * 1024;
export const GOOGLEBUSINESS_PHOTO_MAX_BYTES = 5 * MB;
export const GOOGLEBUSINESS_PHOTO_MIN_PIXELS = 250;
/**
 * Videos: up to 30 seconds, up to 75 MB, 720p or higher (same Help Center page, UNVERIFIED likewise). Whether the v4
 * localPosts API takes a VIDEO media item at all is UNCONFIRMED (Late's client says "no videos");
 * Herald sends `mediaFormat: VIDEO` and reports Google's answer.
 */
export const GOOGLEBUSINESS_VIDEO_MAX_SECONDS = 30;
export const GOOGLEBUSINESS_VIDEO_MAX_BYTES = 75 * MB;
export const GOOGLEBUSINESS_VIDEO_MIN_PIXELS = 720;
// Discord: https://discord.com/developers/docs/resources/message#create-message
export const DISCORD_DOCS_URL = 'https://discord.com/developers/docs/resources/message#create-message';
/**
 * `content` of a message: at most 2,000 characters (Create Message). Whether Discord counts code
 * points or UTF-16 units is UNVERIFIED: the strict reading (UTF-16 units, an emoji outside the BMP
 * counts 2) is used.
 */
export const DISCORD_MAX_TEXT = 2000;
/** Files per message: at most 10 (error 30015 "Maximum number of attachments in a message reached (10)"). */
export const DISCORD_MAX_FILES = 10;
/**
 * Size of one file: "The default limit is 10 MiB" (Uploading Files,
 * https://discord.com/developers/docs/reference#uploading-files); servers with a Boost tier allow
 * more, which Herald does not read, so the default is the limit (error 50045 above it).
 */
export const DISCORD_FILE_MAX_BYTES = 10 * MB;
/** Whole request when sending a message with files: at most 25 MiB (error 40005 "Request entity too large"). */
export const DISCORD_REQUEST_MAX_BYTES = 25 * MB;
/** Thread and forum post names: 1 to 100 characters (Start Thread from Message, Start Thread in Forum or Media Channel). */
export const DISCORD_THREAD_NAME_MAX = 100;
/** Tags applied to a forum post: at most 5 (`applied_tags`, Start Thread in Forum or Media Channel). */
export const DISCORD_FORUM_TAGS_MAX = 5;
// Telegram (Bot API): https://core.telegram.org/bots/api
export const TELEGRAM_DOCS_URL = 'https://core.telegram.org/bots/api';
/** sendMessage `text`: 1-4096 characters after entities parsing (counted here in UTF-16 units, the unit of entity offsets: the strict reading). */
export const TELEGRAM_TEXT_MAX = 4096;
/** sendPhoto/sendVideo/sendMediaGroup item `caption`: 0-1024 characters after entities parsing. */
export const TELEGRAM_CAPTION_MAX = 1024;
/** sendMediaGroup `media`: "must include 2-10 items". */
export const TELEGRAM_ALBUM_MIN = 2;
export const TELEGRAM_ALBUM_MAX = 10;
/** Multipart upload: "10 MB max size for photos" (https://core.telegram.org/bots/api#sending-files). */
export const TELEGRAM_PHOTO_MAX_BYTES = 10 * MB;
/** Multipart upload: "50 MB for other files" (videos, animations, documents). */
export const TELEGRAM_FILE_MAX_BYTES = 50 * MB;
/** sendPhoto: "The photo's width and height must not exceed 10000 in total. Width and height ratio must be at most 20." */
export const TELEGRAM_PHOTO_MAX_DIMENSIONS_SUM = 10_000;
export const TELEGRAM_PHOTO_MAX_RATIO = 20;
// Mastodon: every limit is the instance's own (GET /api/v2/instance, configuration.*:
// https://docs.joinmastodon.org/entities/Instance/#configuration), read at connect into the
// account's settings (`mastodonInstance`). These are mastodon.social's values, used only for an
// account that has none stored (and by the composer before an account is chosen).
export const MASTODON_DOCS_URL = 'https://docs.joinmastodon.org/methods/statuses/#create';
/** The limits of one Mastodon instance, as `GET /api/v2/instance` states them (bytes, pixels, seconds). */
export interface MastodonInstanceLimits {
  /** configuration.statuses.max_characters: text + content warning, in graphemes. */
  maxCharacters: number;
  /** configuration.statuses.characters_reserved_per_url: what every link counts. */
  charactersReservedPerUrl: number;
  /** configuration.statuses.max_media_attachments. */
  maxMediaAttachments: number;
  /** configuration.media_attachments.supported_mime_types. */
  supportedMimeTypes: string[];
  /** configuration.media_attachments.image_size_limit (bytes). */
  imageSizeLimit: number;
  /** configuration.media_attachments.image_matrix_limit (width x height, pixels). */
  imageMatrixLimit: number;
  /** configuration.media_attachments.video_size_limit (bytes). */
  videoSizeLimit: number;
  /** configuration.media_attachments.description_limit (alt text, characters). */
  descriptionLimit: number;
  /** configuration.polls.max_options. */
  pollMaxOptions: number;
  /** configuration.polls.max_characters_per_option. */
  pollMaxCharactersPerOption: number;
  /** configuration.polls.min_expiration (seconds). */
  pollMinExpiration: number;
  /** configuration.polls.max_expiration (seconds). */
  pollMaxExpiration: number;
}
/** mastodon.social's configuration (the example values of https://docs.joinmastodon.org/entities/Instance/). */
export const MASTODON_DEFAULT_LIMITS: Readonly<MastodonInstanceLimits> = {
  maxCharacters: 500, charactersReservedPerUrl: 23, maxMediaAttachments: 4,
  supportedMimeTypes: [
    'image/jpeg', 'image/png', 'image/gif', 'image/heic', 'image/heif', 'image/webp', 'image/avif',
    'video/webm', 'video/mp4', 'video/quicktime', 'video/ogg',
    'audio/wave', 'audio/wav', 'audio/x-wav', 'audio/x-pn-wave', 'audio/vnd.wave', 'audio/ogg', 'audio/vorbis', 'audio/mpeg', 'audio/mp3',
    'audio/webm', 'audio/flac', 'audio/aac', 'audio/m4a', 'audio/x-m4a', 'audio/mp4', 'audio/3gpp', 'video/x-ms-asf',
  ],
  imageSizeLimit: 16_777_216, imageMatrixLimit: 33_177_600, videoSizeLimit: 103_809_024, descriptionLimit: 1500,
  pollMaxOptions: 4, pollMaxCharactersPerOption: 50, pollMinExpiration: 300, pollMaxExpiration: 2_629_746,
};

/** Every platform's capabilities and limits, with the adapters' default options. */
export const PLATFORM_CAPABILITIES: Readonly<Record<PlatformId, Readonly<PlatformLimits>>> = {
  facebook: {
    maxTextLength: FACEBOOK_MAX_TEXT, textUnit: 'characters', maxImages: FACEBOOK_MAX_PHOTOS, maxVideos: 1,
    threads: false, firstComment: true, docsUrl: 'https://developers.facebook.com/docs/pages-api/posts',
    maxImagesWithVideo: 0, gif: 'image', maxDocuments: 0, firstCommentMaxLength: FACEBOOK_MAX_FIRST_COMMENT,
    imageMaxBytes: FACEBOOK_PHOTO_MAX_BYTES, gifMaxBytes: FACEBOOK_PHOTO_MAX_BYTES,
    hashtagsInText: true,
  },
  instagram: {
    maxTextLength: INSTAGRAM_MAX_CAPTION, textUnit: 'characters', maxImages: INSTAGRAM_CAROUSEL_MAX, maxVideos: INSTAGRAM_CAROUSEL_MAX,
    threads: false, firstComment: true, docsUrl: 'https://developers.facebook.com/docs/instagram-platform/content-publishing',
    maxHashtags: INSTAGRAM_MAX_HASHTAGS, maxMediaItems: INSTAGRAM_CAROUSEL_MAX, maxImagesWithVideo: INSTAGRAM_CAROUSEL_MAX, gif: 'refused', maxDocuments: 0,
    mediaRequired: 'image-or-video', firstCommentMaxLength: INSTAGRAM_MAX_FIRST_COMMENT,
    imageMaxBytes: INSTAGRAM_IMAGE_MAX_BYTES, videoMaxBytes: INSTAGRAM_VIDEO_MAX_BYTES,
    hashtagsInText: true, mentionsInText: true,
    // JPEG only (rule instagram.image.format): a PNG or WebP is converted.
    convertToJpeg: { formats: ['image/png', 'image/webp'], reason: 'for Instagram (it takes JPEG images only)' },
  },
  linkedin: {
    maxTextLength: LINKEDIN_MAX_TEXT, textUnit: 'characters', maxImages: LINKEDIN_MAX_IMAGES, maxVideos: 1,
    threads: false, firstComment: true, docsUrl: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api',
    maxImagesWithVideo: 0, gif: 'image', maxDocuments: 1, firstCommentMaxLength: LINKEDIN_MAX_FIRST_COMMENT,
    videoMaxBytes: LINKEDIN_VIDEO_MAX_BYTES,
    hashtagsInText: true,
  },
  twitter: {
    maxTextLength: X_MAX_WEIGHTED_LENGTH, textUnit: 'weighted characters', maxImages: X_MAX_IMAGES, maxVideos: 1,
    threads: true, firstComment: false, docsUrl: 'https://docs.x.com/x-api/posts/create-post',
    maxImagesWithVideo: 0, gif: 'video', maxDocuments: 0,
    imageMaxBytes: X_IMAGE_MAX_BYTES, gifMaxBytes: X_GIF_MAX_BYTES, videoMaxBytes: X_VIDEO_MAX_BYTES,
    hashtagsInText: true, mentionsInText: true,
  },
  threads: {
    maxTextLength: THREADS_MAX_TEXT, textUnit: 'characters', maxImages: THREADS_CAROUSEL_MAX, maxVideos: THREADS_CAROUSEL_MAX,
    threads: true, firstComment: false, docsUrl: 'https://developers.facebook.com/documentation/threads/posts',
    emojiCountsAsBytes: true, maxMediaItems: THREADS_CAROUSEL_MAX, maxImagesWithVideo: THREADS_CAROUSEL_MAX, gif: 'refused', maxDocuments: 0,
    imageMaxBytes: THREADS_IMAGE_MAX_BYTES, videoMaxBytes: THREADS_VIDEO_MAX_BYTES,
    hashtagsInText: true, mentionsInText: true,
  },
  tiktok: {
    maxTextLength: TIKTOK_VIDEO_CAPTION_MAX, textUnit: 'UTF-16 units', maxImages: TIKTOK_PHOTO_MAX_ITEMS, maxVideos: 1,
    threads: false, firstComment: false, docsUrl: 'https://developers.tiktok.com/doc/content-posting-api-reference-direct-post',
    maxTextLengthPhotos: TIKTOK_PHOTO_DESCRIPTION_MAX, maxImagesWithVideo: 0, gif: 'refused', maxDocuments: 0, mediaRequired: 'image-or-video',
    imageMaxBytes: TIKTOK_PHOTO_MAX_BYTES, videoMaxBytes: TIKTOK_VIDEO_MAX_BYTES,
    hashtagsInText: true, mentionsInText: true,
  },
  youtube: {
    maxTextLength: YOUTUBE_DESCRIPTION_MAX_BYTES, textUnit: 'characters', maxImages: 0, maxVideos: 1,
    threads: false, firstComment: true, docsUrl: 'https://developers.google.com/youtube/v3/docs/videos/insert',
    uploadsAhead: true,
    maxTextBytes: YOUTUBE_DESCRIPTION_MAX_BYTES, maxImagesWithVideo: 0, gif: 'image', maxDocuments: 0, mediaRequired: 'video',
    firstCommentMaxLength: YOUTUBE_FIRST_COMMENT_MAX, videoMaxBytes: YOUTUBE_VIDEO_MAX_BYTES,
    hashtagsInText: true, mentionsInText: true,
  },
  pinterest: {
    maxTextLength: PINTEREST_DESCRIPTION_MAX, textUnit: 'characters', maxImages: PINTEREST_CAROUSEL_MAX, maxVideos: 1,
    threads: false, firstComment: false, docsUrl: 'https://developers.pinterest.com/docs/api/v5/pins-create/',
    maxImagesWithVideo: 1, gif: 'image', maxDocuments: 0, mediaRequired: 'image-or-video',
    requiredSetting: { field: 'boardId', accountSetting: 'defaultBoardId', label: 'board' },
    imageMaxBytes: PINTEREST_IMAGE_MAX_BYTES, gifMaxBytes: PINTEREST_IMAGE_MAX_BYTES, videoMaxBytes: PINTEREST_VIDEO_MAX_BYTES,
    hashtagsInText: true,
  },
  reddit: {
    maxTextLength: REDDIT_SELFTEXT_MAX, textUnit: 'characters', maxImages: REDDIT_GALLERY_MAX, maxVideos: 0,
    threads: false, firstComment: false, docsUrl: 'https://www.reddit.com/dev/api#POST_api_submit',
    titleFromFirstLine: { max: REDDIT_TITLE_MAX }, maxImagesWithVideo: 0, gif: 'image', maxDocuments: 0,
    requiredSetting: { field: 'subreddit', accountSetting: 'defaultSubreddit', label: 'subreddit' },
    imageMaxBytes: REDDIT_IMAGE_MAX_BYTES, gifMaxBytes: REDDIT_IMAGE_MAX_BYTES,
  },
  bluesky: {
    maxTextLength: BLUESKY_MAX_GRAPHEMES, textUnit: 'graphemes', maxImages: BLUESKY_MAX_IMAGES, maxVideos: 0,
    threads: true, firstComment: false, docsUrl: BLUESKY_DOCS_URL,
    maxTextBytes: BLUESKY_MAX_TEXT_BYTES, maxImagesWithVideo: 0, gif: 'image', maxDocuments: 0,
    imageMaxBytes: BLUESKY_MAX_IMAGE_BYTES, gifMaxBytes: BLUESKY_MAX_IMAGE_BYTES,
    hashtagsInText: true, mentionsInText: true,
  },
  googlebusiness: {
    maxTextLength: GOOGLEBUSINESS_SUMMARY_MAX, textUnit: 'characters', maxImages: GOOGLEBUSINESS_MAX_MEDIA, maxVideos: GOOGLEBUSINESS_MAX_MEDIA,
    threads: false, firstComment: false, docsUrl: GOOGLEBUSINESS_DOCS_URL,
    maxMediaItems: GOOGLEBUSINESS_MAX_MEDIA, maxImagesWithVideo: 0, gif: 'refused', maxDocuments: 0,
    imageMaxBytes: GOOGLEBUSINESS_PHOTO_MAX_BYTES, videoMaxBytes: GOOGLEBUSINESS_VIDEO_MAX_BYTES,
  },
  discord: {
    maxTextLength: DISCORD_MAX_TEXT, textUnit: 'UTF-16 units', maxImages: DISCORD_MAX_FILES, maxVideos: DISCORD_MAX_FILES,
    threads: true, firstComment: false, docsUrl: DISCORD_DOCS_URL,
    maxMediaItems: DISCORD_MAX_FILES, maxImagesWithVideo: DISCORD_MAX_FILES, gif: 'image', maxDocuments: DISCORD_MAX_FILES,
    imageMaxBytes: DISCORD_FILE_MAX_BYTES, gifMaxBytes: DISCORD_FILE_MAX_BYTES, videoMaxBytes: DISCORD_FILE_MAX_BYTES,
  },
  telegram: {
    maxTextLength: TELEGRAM_TEXT_MAX, textUnit: 'UTF-16 units', maxImages: TELEGRAM_ALBUM_MAX, maxVideos: TELEGRAM_ALBUM_MAX,
    threads: true, firstComment: false, docsUrl: TELEGRAM_DOCS_URL,
    maxMediaItems: TELEGRAM_ALBUM_MAX, maxImagesWithVideo: TELEGRAM_ALBUM_MAX, gif: 'image', maxDocuments: TELEGRAM_ALBUM_MAX,
    imageMaxBytes: TELEGRAM_PHOTO_MAX_BYTES, gifMaxBytes: TELEGRAM_FILE_MAX_BYTES, videoMaxBytes: TELEGRAM_FILE_MAX_BYTES,
    // Telegram links #hashtag and @username in a message by itself (MessageEntity types `hashtag`, `mention`: https://core.telegram.org/bots/api#messageentity).
    hashtagsInText: true, mentionsInText: true,
  },
  // Defaults only: the account's instance states its own (MastodonInstanceLimits in its settings).
  mastodon: {
    maxTextLength: MASTODON_DEFAULT_LIMITS.maxCharacters, textUnit: 'graphemes', maxImages: MASTODON_DEFAULT_LIMITS.maxMediaAttachments, maxVideos: 1,
    threads: true, firstComment: false, docsUrl: MASTODON_DOCS_URL,
    // A GIF becomes a `gifv` attachment, which mixes with images (only audio and video must be alone).
    maxImagesWithVideo: 0, gif: 'image', maxDocuments: 0,
    imageMaxBytes: MASTODON_DEFAULT_LIMITS.imageSizeLimit, videoMaxBytes: MASTODON_DEFAULT_LIMITS.videoSizeLimit, gifMaxBytes: MASTODON_DEFAULT_LIMITS.imageSizeLimit,
    // #hashtags and @user mentions in a status are linked by the server (https://docs.joinmastodon.org/user/posting/, Mentions and Hashtags).
    hashtagsInText: true, mentionsInText: true,
  },
};

/** The capabilities an adapter exposes (the {@link PlatformCapabilities} fields only). */
export function capabilitiesOf(platform: PlatformId): PlatformCapabilities {
  const c = PLATFORM_CAPABILITIES[platform];
  return {
    maxTextLength: c.maxTextLength, textUnit: c.textUnit, maxImages: c.maxImages, maxVideos: c.maxVideos,
    threads: c.threads, firstComment: c.firstComment, docsUrl: c.docsUrl, ...(c.uploadsAhead ? { uploadsAhead: true } : {}),
  };
}

/** Platforms that take a first comment (`platformSpecificData.firstComment`). */
export const FIRST_COMMENT_PLATFORMS: readonly PlatformId[] = PLATFORMS.filter((p) => PLATFORM_CAPABILITIES[p].firstComment);

/** Platforms whose text gets the post's missing `#hashtags` (decision 0022). */
export const HASHTAG_PLATFORMS: readonly PlatformId[] = PLATFORMS.filter((p) => PLATFORM_CAPABILITIES[p].hashtagsInText);
/** Platforms whose text gets the post's missing `@mentions` (decision 0022). */
export const MENTION_PLATFORMS: readonly PlatformId[] = PLATFORMS.filter((p) => PLATFORM_CAPABILITIES[p].mentionsInText);
