/**
 * Bluesky's posting rules, checked without any network call: text length in graphemes and
 * UTF-8 bytes, image count, type and size, media only on the first thread item, post languages.
 * The limits come from src/shared/capabilities.ts (shared with the composer).
 */
import type { MediaRef, PlatformCapabilities, PublishRequest, RuleViolation } from '../types.ts';
import {
  BLUESKY_DOCS_URL, BLUESKY_MAX_IMAGE_BYTES as MAX_IMAGE_BYTES, BLUESKY_MAX_IMAGES as MAX_IMAGES, BLUESKY_MAX_LANGS as MAX_LANGS, capabilitiesOf,
} from '../../shared/capabilities.ts';
import { MAX_GRAPHEMES, MAX_TEXT_BYTES, countGraphemes, utf8Length } from './richtext.ts';

/** The limits (and the docs page they come from) live in src/shared/capabilities.ts, shared with the composer. */
export { BLUESKY_DOCS_URL, MAX_IMAGE_BYTES, MAX_IMAGES, MAX_LANGS };

/** Bluesky capabilities. */
export const BLUESKY_CAPABILITIES: PlatformCapabilities = Object.freeze(capabilitiesOf('bluesky'));

/** One post to create, with where its fields live in the request (for violation paths). */
export interface PlannedItem {
  text: string;
  textField: string;
  media: MediaRef[];
  mediaField: string;
}

export function planItems(req: PublishRequest): PlannedItem[] {
  if (!req.threadItems?.length) {
    return [{ text: req.text ?? '', textField: 'content', media: req.mediaItems ?? [], mediaField: 'mediaItems' }];
  }
  return req.threadItems.map((it, i) => {
    if (i > 0) return { text: it.content ?? '', textField: `threadItems.${i}.content`, media: it.mediaItems ?? [], mediaField: `threadItems.${i}.mediaItems` };
    const own = (it.mediaItems?.length ?? 0) > 0;
    return {
      text: it.content ?? '',
      textField: 'threadItems.0.content',
      media: own ? it.mediaItems! : (req.mediaItems ?? []),
      mediaField: own ? 'threadItems.0.mediaItems' : 'mediaItems',
    };
  });
}

export function langsOf(req: PublishRequest): unknown {
  return req.platformSpecificData?.langs;
}

/** All rule violations of `req`, without any network call. Empty array = publishable. */
export function validateBluesky(req: PublishRequest): RuleViolation[] {
  const out: RuleViolation[] = [];
  const items = planItems(req);
  items.forEach((item, i) => {
    const graphemes = countGraphemes(item.text);
    if (graphemes > MAX_GRAPHEMES) {
      out.push({
        field: item.textField,
        rule: 'bluesky.text.max_graphemes',
        message: `Bluesky posts are limited to ${MAX_GRAPHEMES} graphemes (this text has ${graphemes})`,
      });
    }
    const bytes = utf8Length(item.text);
    if (bytes > MAX_TEXT_BYTES) {
      out.push({
        field: item.textField,
        rule: 'bluesky.text.max_bytes',
        message: `Bluesky posts are limited to ${MAX_TEXT_BYTES} bytes of UTF-8 text (this text has ${bytes})`,
      });
    }
    if (i > 0 && item.media.length > 0) {
      out.push({
        field: item.mediaField,
        rule: 'bluesky.thread.media_on_reply',
        message: 'On Bluesky only the first post of a thread can carry media (Herald attaches media to the first item only)',
      });
      return;
    }
    if (item.text.trim() === '' && item.media.length === 0) {
      out.push({ field: item.textField, rule: 'bluesky.text.empty', message: 'A Bluesky post needs text or at least one image' });
    }
    if (item.media.length > MAX_IMAGES) {
      out.push({
        field: item.mediaField,
        rule: 'bluesky.images.max_count',
        message: `Bluesky posts can carry at most ${MAX_IMAGES} images (this post has ${item.media.length})`,
      });
    }
    item.media.forEach((m, j) => {
      const field = `${item.mediaField}.${j}`;
      if (m.type === 'video') {
        out.push({
          field,
          rule: 'bluesky.media.video_unsupported',
          message: 'Video on Bluesky is not supported by Herald yet (it needs the video.bsky.app upload service); only images are allowed',
        });
      } else if (m.type !== 'image' && m.type !== 'gif') {
        out.push({ field, rule: 'bluesky.media.type', message: `Bluesky posts accept only images (image/*); a ${m.type} cannot be attached` });
      } else if (m.mimeType && !m.mimeType.toLowerCase().startsWith('image/')) {
        out.push({ field, rule: 'bluesky.media.type', message: `Bluesky images must be image/* (this file is ${m.mimeType})` });
      }
      if ((m.type === 'image' || m.type === 'gif') && typeof m.size === 'number' && m.size > MAX_IMAGE_BYTES) {
        out.push({
          field,
          rule: 'bluesky.image.max_bytes',
          message: `Bluesky images are limited to ${MAX_IMAGE_BYTES.toLocaleString('en-US')} bytes (this one has ${m.size.toLocaleString('en-US')})`,
        });
      }
    });
  });
  const langs = langsOf(req);
  if (langs !== undefined && (!Array.isArray(langs) || langs.length > MAX_LANGS || langs.some((l) => typeof l !== 'string' || !l))) {
    out.push({
      field: 'platformSpecificData.langs',
      rule: 'bluesky.langs.max_count',
      message: `Bluesky post languages must be a list of at most ${MAX_LANGS} language tags (e.g. ["en"])`,
    });
  }
  return out;
}
