/** Request and response schemas of the validation tools (POST /v1/tools/validate/post, /post-length and /media). */
import { Type, type Static } from 'typebox';
import { PLATFORMS } from '../../shared/platforms.ts';
import { CreatePostBody } from '../posts/schemas.ts';

export const ValidatePostBody = CreatePostBody;
export type ValidatePostBody = Static<typeof ValidatePostBody>;

const Problem = Type.Object({
  platform: Type.Optional(Type.String({ description: 'The platform the problem belongs to, when it belongs to one' })),
  field: Type.String({ description: 'The request field, as in a 400\'s details.fields (e.g. platforms.0.customContent)' }),
  error: Type.String({ description: 'What is wrong, naming the rule' }),
});

export const ValidatePostResponse = Type.Object({
  valid: Type.Boolean(),
  message: Type.String(),
  errors: Type.Array(Problem),
  warnings: Type.Array(Type.Object({ platform: Type.Optional(Type.String()), warning: Type.String() })),
  fields: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'The errors by field, as a 400 VALIDATION_ERROR of POST /v1/posts gives them' }),
  duplicateOf: Type.Optional(Type.Object({ accountId: Type.String(), existingPostId: Type.String() }, {
    description: 'Set when POST /v1/posts would answer 409 DUPLICATE_CONTENT (same content to the account within 24 hours)',
  })),
});

export const ValidateLengthBody = Type.Object({
  text: Type.String({ maxLength: 100_000, description: 'The post text to measure' }),
});

export const ValidateLengthResponse = Type.Object({
  text: Type.String(),
  platforms: Type.Record(Type.String(), Type.Object({
    count: Type.Integer({ description: 'Length in the platform\'s unit' }),
    limit: Type.Integer({ description: 'The platform\'s maximum' }),
    valid: Type.Boolean(),
    unit: Type.String({ description: 'characters, graphemes, weighted characters (X) or UTF-16 units' }),
    remaining: Type.Integer(),
  })),
  weightedLength: Type.Integer({ description: 'X\'s weighted length (URLs 23, emoji and CJK 2), as twitter-text counts it' }),
});

export const ValidateMediaBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', description: 'Public media URL to validate (http or https)' }),
  platforms: Type.Optional(Type.Array(Type.Enum(PLATFORMS), {
    minItems: 1, maxItems: PLATFORMS.length, uniqueItems: true,
    description: 'Herald: the platforms the media must suit (valid is false when one refuses it); default every platform, each judged in `platforms` without deciding `valid`',
  })),
});

const Verdict = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Type.Object({ rule: Type.String({ description: 'The rule\'s id in the platform rule table' }), message: Type.String() })),
});

export const ValidateMediaResponse = Type.Object({
  valid: Type.Boolean({ description: 'The URL is an image or video Herald publishes, and every platform named in `platforms` takes it' }),
  url: Type.String(),
  error: Type.Optional(Type.String({ description: 'Why valid is false' })),
  contentType: Type.Optional(Type.String({ description: 'The media type read from the file\'s bytes (else the server\'s Content-Type)' })),
  size: Type.Union([Type.Integer(), Type.Null()], { description: 'Bytes; null when the file could not be read' }),
  sizeFormatted: Type.Optional(Type.String()),
  type: Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('unknown')], { description: 'image (GIFs included), video, or unknown' }),
  mediaType: Type.Optional(Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('gif'), Type.Literal('document')], { description: 'Herald\'s media item type' })),
  width: Type.Optional(Type.Integer({ description: 'Pixels, as displayed' })),
  height: Type.Optional(Type.Integer()),
  duration: Type.Optional(Type.Number({ description: 'Seconds (video)' })),
  videoCodec: Type.Optional(Type.String()),
  frames: Type.Optional(Type.Integer({ description: 'Frames of a GIF' })),
  probeError: Type.Optional(Type.String({ description: 'Why duration or pixel size could not be read (e.g. no ffprobe): their rules are left to the platform' })),
  platformLimits: Type.Optional(Type.Record(Type.String(), Type.Object({
    limit: Type.Integer({ description: 'The platform\'s size limit for this type, bytes' }), limitFormatted: Type.String(), withinLimit: Type.Boolean(),
  }), { description: 'Per-platform size limit, where the platform has one for the type' })),
  platforms: Type.Optional(Type.Record(Type.String(), Verdict, { description: 'Each platform\'s verdict by its media rules (type, size, pixel size, aspect ratio, duration, codecs, GIF frames)' })),
});
