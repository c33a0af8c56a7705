/** What Reddit's account resources share: the subreddit name check and the schemas of a name and of a subreddit's posting rules. */
import { Type } from 'typebox';
import { fieldError } from '../../core/errors.ts';
import { normalizeSubreddit, SUBREDDIT_NAME } from './adapter.ts';

/** The subreddit named by `field` without `r/`, or undefined when absent. @throws AppError 400 naming the field for a name Reddit cannot have. */
export function checkSubreddit(field: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const sr = normalizeSubreddit(v);
  if (!sr || !SUBREDDIT_NAME.test(sr)) throw fieldError(field, 'must be a subreddit name such as "test" or "r/test"');
  return sr;
}

/** A subreddit name as a query or body field (Reddit names are at most 21 characters, with an optional r/). */
export const SubredditName = (description: string) => Type.String({ minLength: 1, maxLength: 24, description });

/** A subreddit's posting rules as Herald applies them (RedditSubredditRules in src/shared/rules/reddit.ts). */
export const RulesSchema = Type.Object({
  submissionType: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('self'), Type.Literal('link')])),
  allowImages: Type.Optional(Type.Boolean()), allowGalleries: Type.Optional(Type.Boolean()), flairRequired: Type.Optional(Type.Boolean()),
  titleMinLength: Type.Optional(Type.Integer()), titleMaxLength: Type.Optional(Type.Integer()),
  bodyPolicy: Type.Optional(Type.Union([Type.Literal('required'), Type.Literal('notAllowed'), Type.Literal('none')])),
  bodyMinLength: Type.Optional(Type.Integer()), bodyMaxLength: Type.Optional(Type.Integer()),
});
