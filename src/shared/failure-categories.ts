/**
 * Why a post target failed, for programs: the official client's `errorCategory` and `errorSource`
 * (Late/Zernio's PlatformTarget, docs/decisions/0063-validation-error-categories-scoped-keys.md).
 *
 * One table maps each of Herald's failure reasons (what the publisher found: a rule violation, an
 * expired token, a platform's 429 or 5xx, a network failure, unusable media, ...) to its category
 * ({@link FAILURE_REASONS}); a second gives each category its source ({@link ERROR_SOURCE_OF}). The
 * category is stored with the target (`post_targets.error_category`); the source is derived from
 * it wherever a target is shown (post responses, webhooks), so the two never disagree.
 */

/** The client's `errorCategory` values, exactly. */
export const ERROR_CATEGORIES = [
  'auth_expired', 'user_content', 'user_abuse', 'account_issue', 'platform_rejected',
  'platform_error', 'platform_rate_limit', 'quota_exhausted', 'system_error', 'unknown',
] as const;
/** One of the client's `errorCategory` values. */
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** The client's `errorSource` values: who has to act (fix content or reconnect; wait out the platform; Herald's operator). */
export const ERROR_SOURCES = ['user', 'platform', 'system'] as const;
/** One of the client's `errorSource` values. */
export type ErrorSource = (typeof ERROR_SOURCES)[number];

/**
 * Who causes each category. `platform_rejected` is the user's: Herald checks every documented rule
 * before calling, so what a platform still refuses is its policy applied to this content or account,
 * which the user changes. `unknown` is the platform's: Herald's only unknown outcome is a publish
 * call the platform neither answered nor could confirm afterwards.
 */
export const ERROR_SOURCE_OF: Record<ErrorCategory, ErrorSource> = {
  auth_expired: 'user',
  user_content: 'user',
  user_abuse: 'user',
  account_issue: 'user',
  platform_rejected: 'user',
  platform_error: 'platform',
  platform_rate_limit: 'platform',
  quota_exhausted: 'platform',
  system_error: 'system',
  unknown: 'platform',
};

/** Herald's failure reasons, each with its category and what it means (the docs' table is this one). */
export const FAILURE_REASONS = {
  account_removed: { category: 'account_issue', what: 'The target\'s account was disconnected from Herald' },
  account_needs_reconnect: { category: 'auth_expired', what: 'The account is marked as needing a reconnect (its token was refused or could not be renewed)' },
  sandbox_mismatch: { category: 'account_issue', what: 'A sandbox account with sandbox mode off, or a real account with it on' },
  platform_not_configured: { category: 'system_error', what: 'This server has no credentials (app) for the platform' },
  rule_violation: { category: 'user_content', what: 'The post breaks one of the platform\'s documented rules (length, media count, type, size, duration, ...)' },
  media_unusable: { category: 'user_content', what: 'A media URL is refused by the address policy, unreadable, or not media' },
  media_unreachable: { category: 'user_content', what: 'A media URL could not be downloaded (timeouts, errors) on every attempt' },
  platform_rejected: { category: 'platform_rejected', what: 'The platform refused the request (its 4xx answer other than rate limits and tokens)' },
  token_revoked: { category: 'auth_expired', what: 'The platform refused the account\'s token (revoked, password changed): reconnect' },
  token_expired: { category: 'auth_expired', what: 'The token expired and renewing it kept failing' },
  platform_rate_limited: { category: 'platform_rate_limit', what: 'The platform\'s rate limit (429), still hit after Herald waited and retried' },
  platform_unavailable: { category: 'platform_error', what: 'The platform answered 5xx on every attempt' },
  network: { category: 'platform_error', what: 'The platform could not be reached (connection refused or reset, DNS, timeout) on every attempt' },
  verify_pending: { category: 'platform_error', what: 'Herald is still checking whether an unanswered publish call created the post (the target stays pending)' },
  publish_unconfirmed: { category: 'unknown', what: 'A publish call got no answer and the platform could not confirm afterwards whether it created the post' },
  not_live: { category: 'platform_rejected', what: 'A post the platform publishes itself at its time was removed or refused before going live' },
  not_live_in_time: { category: 'platform_error', what: 'A post the platform publishes itself was not public well after its time' },
} as const satisfies Record<string, { category: ErrorCategory; what: string }>;
/** A failure reason of Herald's (a key of {@link FAILURE_REASONS}). */
export type FailureReason = keyof typeof FAILURE_REASONS;

/** The category of one of Herald's failure reasons. */
export function categoryOf(reason: FailureReason): ErrorCategory {
  return FAILURE_REASONS[reason].category;
}

/** A stored category as the client's enum: null stays null, a value outside it (never written today) is `unknown`. */
export function asErrorCategory(category: string | null | undefined): ErrorCategory | null {
  if (!category) return null;
  return (ERROR_CATEGORIES as readonly string[]).includes(category) ? category as ErrorCategory : 'unknown';
}

/** The source of a stored category (see {@link asErrorCategory}); null for none. */
export function errorSourceOf(category: string | null | undefined): ErrorSource | null {
  const c = asErrorCategory(category);
  return c ? ERROR_SOURCE_OF[c] : null;
}

/** SQL: the client's category of the stored category in SQL expression `category` (as {@link asErrorCategory}). */
export function errorCategorySql(category: string): string {
  return `(CASE WHEN ${category} IS NULL THEN NULL WHEN ${category} IN (${ERROR_CATEGORIES.map((c) => `'${c}'`).join(', ')}) THEN ${category} ELSE 'unknown' END)`;
}

/** SQL: the source of the category in SQL expression `category` (as {@link errorSourceOf}). */
export function errorSourceSql(category: string): string {
  const whens = Object.entries(ERROR_SOURCE_OF).map(([c, s]) => `WHEN ${category} = '${c}' THEN '${s}'`).join(' ');
  return `(CASE WHEN ${category} IS NULL THEN NULL ${whens} ELSE '${ERROR_SOURCE_OF.unknown}' END)`;
}
