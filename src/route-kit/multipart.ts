/**
 * Malformed multipart bodies are the client's fault: @fastify/busboy reports a missing,
 * empty or over-long boundary, a truncated body or an unsupported Content-Type as plain
 * Errors (no status), which would otherwise surface as a 500.
 */
import { AppError } from '../core/errors.ts';

/** Messages of @fastify/busboy (and its dicer and streamsearch parts) for a body it cannot parse. */
const PARSE_FAILURES = [
  /^Multipart: /, // "Multipart: Boundary not found"
  /unexpected end of multipart data/i, // truncated body (the form, or a part "terminated early")
  /^Boundary required/, /^The needle /, // empty or over-long boundary
  /^Unsupported Content-Type/, /^Missing Content-Type/,
  /^Malformed /,
];
/** @fastify/multipart's own codes for a body it cannot use. */
const PARSE_CODES = new Set(['FST_INVALID_MULTIPART_CONTENT_TYPE', 'FST_MP_PREMATURE_CLOSE', 'FST_PROTO_VIOLATION', 'FST_INVALID_JSON_FIELD_ERROR']);

/**
 * A 400 BAD_REQUEST naming `(body)` when `err` is a multipart parse failure, else null
 * (storage and database failures stay what they are).
 */
export function malformedMultipart(err: unknown): AppError | null {
  if (!(err instanceof Error) || err instanceof AppError) return null;
  const code = (err as { code?: string }).code;
  if (!(code && PARSE_CODES.has(code)) && !PARSE_FAILURES.some((re) => re.test(err.message))) return null;
  const message = `The multipart/form-data body cannot be read: ${err.message}`;
  return new AppError('BAD_REQUEST', message, { fields: { '(body)': ['is not valid multipart/form-data (check the boundary in the Content-Type and that the body is complete)'] } });
}
