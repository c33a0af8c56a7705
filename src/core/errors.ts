/**
 * One error-code table for the whole service. Services throw {@link AppError} with a
 * code from {@link ERROR_CODES}; the HTTP layer maps the code to its status once
 * (src/http/errors.ts). Bodies follow the Late error envelope:
 * `{ error, code, details?, requestId, ...extra }`.
 */

/** Machine code -> HTTP status. */
export const ERROR_CODES = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  /** GET /v1/analytics without the Analytics add-on (decision 0030: 402 with code analytics_addon_required). */
  analytics_addon_required: 402,
  FORBIDDEN: 403,
  insufficient_permissions: 403,
  PLAN_LIMIT_REACHED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The same content to the same account within 24 hours (details: accountId, existingPostId). */
  DUPLICATE_CONTENT: 409,
  GONE: 410,
  INVALID_STATE: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  'file-too-large': 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PLATFORM_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
  /** PostgreSQL cannot be reached or cannot serve now (down, frozen, timed out); sent with Retry-After (decision 0044). */
  DATABASE_UNAVAILABLE: 503,
  /** The disk that uploads are written to is full (ENOSPC); nothing partial is kept (decision 0044). */
  STORAGE_FULL: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Map of request field path (e.g. `platforms.0.accountId`) to messages naming the rule. */
export type FieldErrors = Record<string, string[]>;

/**
 * An expected failure with a machine code, a human message and optional details.
 * `extra` fields are merged into the top level of the body (planName, limit, maxSize, ...).
 */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: Record<string, unknown>,
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }
}

/** 400 with `details.fields` naming each field and rule. */
export function validationError(fields: FieldErrors, message?: string): AppError {
  const first = Object.entries(fields)[0];
  const summary = message ?? (first ? `Invalid ${first[0]}: ${first[1][0]}` : 'Invalid request');
  return new AppError('VALIDATION_ERROR', summary, { fields });
}

/** Single-field shorthand for {@link validationError}. */
export function fieldError(field: string, message: string): AppError {
  return validationError({ [field]: [message] });
}

/**
 * 404 in the one shape used for every missing or foreign resource (no existence leak). `details`, when
 * given, names the request field that pointed at it (`{ field: 'queueId' }`), so a caller can tell which.
 */
export function notFound(what: string, details?: Record<string, unknown>): AppError {
  return new AppError('NOT_FOUND', `${what} not found`, details);
}

/** Collects field errors and throws them together. */
export class FieldErrorCollector {
  readonly fields: FieldErrors = {};
  add(field: string, message: string): void {
    (this.fields[field] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw validationError(this.fields);
  }
}
