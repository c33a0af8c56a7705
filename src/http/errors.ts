/**
 * Maps every thrown error to the one body shape: `{ error, code, details?, requestId, ...extra }`.
 * AppError codes map to statuses through the table in src/core/errors.ts; schema
 * validation failures become 400 `VALIDATION_ERROR` with `details.fields`; anything
 * else is a 500 whose body carries only the requestId that is in the logs.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type FieldErrors } from '../core/errors.ts';
import { isDatabaseUnavailable } from '../storage/db.ts';
import { isDiskFull, storageFullError } from '../storage/disk-space.ts';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableError, errorBody } from '../route-kit/error-body.ts';
import { retryAfterOf } from '../route-kit/rate-limit-headers.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/platforms/0/accountId` -> `platforms.0.accountId`; the request part prefixes non-body fields. */
function fieldPath(err: AjvError, context: string | undefined): string {
  let p = err.instancePath.replace(/^\//, '').replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~');
  if (err.keyword === 'required' && typeof err.params.missingProperty === 'string') {
    p = p ? `${p}.${err.params.missingProperty}` : err.params.missingProperty;
  }
  if (err.keyword === 'additionalProperties' && typeof err.params.additionalProperty === 'string') {
    p = p ? `${p}.${err.params.additionalProperty}` : err.params.additionalProperty;
  }
  if (!p) p = context === 'body' || !context ? '(body)' : `(${context})`;
  return p;
}

function ruleMessage(err: AjvError): string {
  switch (err.keyword) {
    case 'required': return 'is required';
    case 'additionalProperties': return 'is not an allowed field';
    case 'enum': return `must be one of: ${(err.params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const': return `must be ${JSON.stringify(err.params.allowedValue)}`;
    case 'anyOf': case 'oneOf': return 'does not match any allowed form';
    default: return err.message ?? 'is invalid';
  }
}

/** Converts a Fastify/AJV validation failure into field errors. */
export function fieldsFromValidation(errors: AjvError[], context: string | undefined): FieldErrors {
  const fields: FieldErrors = {};
  // For unions, AJV reports the branch errors and then the union's own; keep the most specific.
  for (const e of errors) {
    const key = fieldPath(e, context);
    const msg = ruleMessage(e);
    const list = (fields[key] ??= []);
    if (!list.includes(msg)) list.push(msg);
  }
  return fields;
}


/**
 * Fastify error handler: the single place errors become HTTP responses. A database that cannot
 * serve becomes 503 DATABASE_UNAVAILABLE with Retry-After, a full upload disk 507 STORAGE_FULL,
 * wherever the error was raised (docs/decisions/0044-database-failures.md).
 */
export function handleError(err: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (!(err instanceof AppError)) {
    if (isDatabaseUnavailable(err)) err = databaseUnavailableError(err);
    else if (isDiskFull(err)) err = storageFullError(err);
  }
  if (err instanceof AppError) {
    if (err.code === 'DATABASE_UNAVAILABLE') reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
    // Every 429 says when to come back (decision 0063): the limit's own value, else one from the error's details.
    if (err.code === 'RATE_LIMITED' && !reply.hasHeader('retry-after')) reply.header('retry-after', retryAfterOf(err.details, Date.now()));
    if (err.status >= 500) request.log.error({ err }, 'request failed');
    return reply.status(err.status).send(errorBody(request, err.code, err.message, err.details, err.extra));
  }
  const fe = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) {
    const fields = fieldsFromValidation(fe.validation, fe.validationContext);
    const [first] = Object.entries(fields);
    const message = first ? `Invalid ${first[0]}: ${first[1][0]}` : 'Invalid request';
    return reply.status(400).send(errorBody(request, 'VALIDATION_ERROR', message, { fields }));
  }
  const status = fe.statusCode ?? 500;
  if (status === 413) {
    return reply.status(413).send(errorBody(request, 'PAYLOAD_TOO_LARGE', 'Request Entity Too Large'));
  }
  if (status === 415) {
    return reply.status(415).send(errorBody(request, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type: ${request.headers['content-type'] ?? '(none)'}`));
  }
  if (status >= 400 && status < 500) {
    // Malformed JSON, empty body with a JSON content type, and similar client errors.
    return reply.status(400).send(errorBody(request, 'BAD_REQUEST', fe.message, { fields: { '(body)': [fe.message] } }));
  }
  request.log.error({ err }, 'unhandled error');
  return reply.status(500).send(errorBody(request, 'INTERNAL_ERROR', 'Internal server error. Quote the requestId when reporting it.'));
}

