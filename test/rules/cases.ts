/**
 * The rule cases every platform keeps (docs/decisions/0026-one-rule-table.md): for each rule
 * of a platform's table (src/shared/rules/<platform>.ts), a post just inside it and one just
 * outside it, and what the platform itself answers to the outside one. test/rules/rules.test.ts
 * runs both through the server's check and the composer's; each platform's contract test sends
 * them to its simulator past Herald's checks (test/contract/rule-cases.ts), so the adapter's
 * rules and the simulator's are tested against each other.
 *
 * Media in a case is described, not stored: {@link image} and {@link video} give a MediaRef
 * whose URL names the file to generate (format, pixels, bytes, seconds) and whose metadata is
 * what Herald would know of it (as probed at upload). The simulator test generates the real
 * file with ffmpeg and serves it.
 */
import type { MediaRef, RulePost } from '../../src/shared/rules/types.ts';

/** A case's post: any RulePost field may be left out (text '', no media, no thread, no options). */
export type CasePost = Partial<RulePost>;

/** What the platform answers to the outside post, sent past Herald's checks. */
export type PlatformAnswer =
  /** The platform refuses it: its error code or message matches. */
  | { refuses: string | RegExp }
  /** Not sent, and why (a rule of Herald's own making, or one the platform checks only after publishing). */
  | { notSent: string };

export interface RuleCase {
  /** The rule's id in the platform's table. */
  rule: string;
  /** Names the case when a rule has several (e.g. 'too tall', 'too wide'). */
  name?: string;
  /** Just inside the rule: the post does not break `rule`. */
  inside: CasePost;
  /** Just outside the rule: the post breaks `rule`. */
  outside: CasePost;
  platform: PlatformAnswer;
}

export function fullPost(p: CasePost): RulePost {
  return {
    text: p.text ?? '', mediaItems: p.mediaItems ?? [], threadItems: p.threadItems ?? [], platformSpecificData: p.platformSpecificData ?? {}, tags: p.tags ?? [],
    visibility: p.visibility ?? 'public', ...(p.accountSettings ? { accountSettings: p.accountSettings } : {}), ...(p.scheduledFor ? { scheduledFor: p.scheduledFor } : {}),
  };
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';
const MIME: Record<ImageFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };
const EXT: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif' };

/** Where a described media file lives until a test generates it. */
export const CASE_MEDIA_ORIGIN = 'https://media.rules.test';

/**
 * An image of `format`, `width` x `height` pixels; `bytes`: its exact size (padded, still a
 * valid file); `frames`: a GIF's frame count. Type 'gif' for GIFs, else 'image'.
 */
export function image(format: ImageFormat, width: number, height: number, opts: { bytes?: number; frames?: number } = {}): MediaRef {
  const q = new URLSearchParams({ format, w: String(width), h: String(height), ...(opts.bytes ? { bytes: String(opts.bytes) } : {}), ...(opts.frames ? { frames: String(opts.frames) } : {}) });
  return {
    type: format === 'gif' ? 'gif' : 'image', url: `${CASE_MEDIA_ORIGIN}/image.${EXT[format]}?${q}`, mimeType: MIME[format], width, height,
    ...(opts.bytes ? { size: opts.bytes } : {}), ...(opts.frames ? { frames: opts.frames } : {}),
  };
}

/** An MP4 video (H.264/AAC) of `seconds`, `width` x `height`; `bytes`: its exact size (padded, still a valid file). */
export function video(seconds: number, width = 1080, height = 1920, opts: { bytes?: number; audio?: boolean } = {}): MediaRef {
  const q = new URLSearchParams({ s: String(seconds), w: String(width), h: String(height), ...(opts.bytes ? { bytes: String(opts.bytes) } : {}), ...(opts.audio === false ? { audio: '0' } : {}) });
  return {
    type: 'video', url: `${CASE_MEDIA_ORIGIN}/video.mp4?${q}`, mimeType: 'video/mp4', durationSeconds: seconds, width, height,
    videoCodec: 'h264', ...(opts.audio === false ? {} : { audioCodec: 'aac' }), ...(opts.bytes ? { size: opts.bytes } : {}),
  };
}

/** A PDF document of about `bytes`. */
export function pdf(bytes?: number): MediaRef {
  return { type: 'document', url: `${CASE_MEDIA_ORIGIN}/doc.pdf${bytes ? `?bytes=${bytes}` : ''}`, mimeType: 'application/pdf', ...(bytes ? { size: bytes } : {}) };
}

/** `n` copies made by `f`. */
export const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
