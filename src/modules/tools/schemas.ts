/** Request and response schemas of the validation tools (POST /v1/tools/validate/post and /post-length). */
import { Type, type Static } from 'typebox';
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
