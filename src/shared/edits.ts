/**
 * Editing a published post (POST /v1/posts/{postId}/edit; docs/decisions/0060-edit-published-posts.md):
 * whether each platform's API can change a post after it is live, what it can change, within
 * which window, and the official page that says so. Data, so that the API, the dashboard's "Edit"
 * action and the docs read one table. Pure: shared with the web app.
 *
 * `platform`: the platform's API has an edit endpoint. `herald`: Herald calls it (the adapter has
 * `editPublished`). A platform with the first and not the second answers that Herald does not edit
 * there yet; one without the first answers that the platform cannot edit.
 */
import { PLATFORMS, type PlatformId } from './platforms.ts';

export interface PublishedEditRule {
  /** The platform's API can change the text of a published post. */
  platform: boolean;
  /** Herald edits posts there (the adapter implements the call). */
  herald: boolean;
  /** What an edit can change, or why a post cannot be edited. One sentence. */
  what: string;
  /** The call (method and path, or API method). */
  how: string;
  /** Edits allowed only this long after publishing (minutes), when the platform limits it. */
  windowMinutes?: number;
  /** The official page the rule comes from. */
  doc: string;
}

/** Per platform: can a published post's text be edited, how, and the source. */
export const PUBLISHED_EDITS: Readonly<Record<PlatformId, PublishedEditRule>> = {
  mastodon: {
    platform: true, herald: true,
    what: 'the text (and content warning, sensitivity, language, media and poll); only the author\'s own statuses; the text keeps the instance\'s character limit',
    how: 'PUT /api/v1/statuses/:id (scope write:statuses)', doc: 'https://docs.joinmastodon.org/methods/statuses/#edit',
  },
  discord: {
    platform: true, herald: true,
    what: 'the content (at most 2,000 characters) of a message the bot sent; no time limit',
    how: 'PATCH /channels/{channel.id}/messages/{message.id}', doc: 'https://discord.com/developers/docs/resources/message#edit-message',
  },
  telegram: {
    platform: true, herald: true,
    what: 'the text (1-4,096 characters) of a text message, or the caption (0-1,024 characters) of a media message, that the bot sent',
    how: 'editMessageText / editMessageCaption', doc: 'https://core.telegram.org/bots/api#editmessagetext',
  },
  youtube: {
    platform: true, herald: true,
    what: 'the description (edit), or title, description, tags, category and privacy (update-metadata); the video itself cannot be replaced',
    how: 'PUT /youtube/v3/videos?part=snippet,status (videos.update, 50 quota units)', doc: 'https://developers.google.com/youtube/v3/docs/videos/update',
  },
  twitter: {
    platform: true, herald: false,
    what: 'the text, within 30 minutes of posting and at most 5 times; each edit is a new post id; not posts with polls, replies to others or reposts',
    how: 'an edit is a new post in the edit chain; the API call that makes it is not in X\'s public API reference, so Herald does not make it yet', windowMinutes: 30,
    doc: 'https://docs.x.com/x-api/fundamentals/edit-posts',
  },
  facebook: {
    platform: true, herald: true,
    what: 'the message of a Page post the app published (not a story)',
    how: 'POST /{page-post-id} with message', doc: 'https://developers.facebook.com/docs/graph-api/reference/post/#updating',
  },
  linkedin: {
    platform: true, herald: true,
    what: 'the commentary (text) of a post; not its media, author or poll',
    how: 'POST /rest/posts/{urn} with X-RestLi-Method: PARTIAL_UPDATE and patch.$set.commentary',
    doc: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#update-posts',
  },
  pinterest: {
    platform: true, herald: true,
    what: 'the description (the post\'s text, at most 800 characters; title, link, alt text and board can change too); not its media',
    how: 'PATCH /v5/pins/{pin_id}', doc: 'https://developers.pinterest.com/docs/api/v5/pins-update/',
  },
  reddit: {
    platform: true, herald: true,
    what: 'the body of a self (text) post; not its title, and not link or media posts',
    how: 'POST /api/editusertext (scope edit)', doc: 'https://www.reddit.com/dev/api/#POST_api_editusertext',
  },
  googlebusiness: {
    platform: true, herald: true,
    what: 'the summary (text, at most 1,500 characters) of a local post, with updateMask=summary; Google reviews it again',
    how: 'PATCH /v4/{name=accounts/*/locations/*/localPosts/*}', doc: 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/patch',
  },
  instagram: {
    platform: false, herald: false,
    what: 'the Instagram Graph API cannot change a published post\'s caption (a media object\'s only writable field is comment_enabled); edit it in the Instagram app',
    how: 'none', doc: 'https://developers.facebook.com/docs/instagram-platform/reference/instagram-media',
  },
  threads: {
    platform: false, herald: false,
    what: 'the Threads API publishes and deletes posts but its reference lists no endpoint to edit one; edit it in the Threads app',
    how: 'none', doc: 'https://developers.facebook.com/docs/threads/reference',
  },
  tiktok: {
    platform: false, herald: false,
    what: 'the TikTok Content Posting API has no endpoint to change a published post',
    how: 'none', doc: 'https://developers.tiktok.com/doc/content-posting-api-reference-direct-post',
  },
  bluesky: {
    platform: false, herald: false,
    what: 'Bluesky has no post editing: its app offers none, and overwriting the record (com.atproto.repo.putRecord) gives it a new CID while replies, likes and quotes point at the old one (strongRef); delete it and post again',
    how: 'none', doc: 'https://docs.bsky.app/docs/advanced-guides/posts',
  },
};

/** Why `platform`'s published posts cannot be edited through Herald (null: they can). */
export function editRefusal(platform: PlatformId): string | null {
  const rule = PUBLISHED_EDITS[platform];
  if (rule.herald) return null;
  if (!rule.platform) return `${platform} posts cannot be edited after publishing: ${rule.what}`;
  return `Herald does not edit ${platform} posts yet. The platform allows editing ${rule.what}; ${rule.how}. Edit it on ${platform} itself`;
}

/**
 * A platform whose published videos' metadata Herald changes (POST /v1/posts/{postId}/update-metadata,
 * decision 0060; the adapter implements `updateVideoMetadata`): `how`, the call (for the publishing
 * log); `notYet`, the request fields Herald does not apply there yet, each with why and where to do
 * it instead (answered as a 400 naming the field).
 */
export interface VideoMetadataRule {
  how: string;
  notYet: Readonly<Record<string, string>>;
}

/** {@link VideoMetadataRule} of each platform that has one. */
export const VIDEO_METADATA_EDITS: Readonly<Partial<Record<PlatformId, VideoMetadataRule>>> = {
  // https://developers.google.com/youtube/v3/docs/videos/update
  youtube: {
    how: 'PUT /youtube/v3/videos',
    notYet: {
      thumbnailUrl: 'Herald does not set custom thumbnails on published videos yet (thumbnails.set); set it in YouTube Studio',
      playlistId: 'Herald does not add published videos to playlists yet (playlistItems.insert); add it in YouTube Studio',
    },
  },
};

/** The platforms of {@link VIDEO_METADATA_EDITS}, in the platform order. */
export const VIDEO_METADATA_PLATFORMS: readonly PlatformId[] = PLATFORMS.filter((p) => VIDEO_METADATA_EDITS[p]);

