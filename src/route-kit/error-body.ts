/**
 * The one error body of every answer, `{ error, code, details?, ...extra, requestId }` (the error
 * codes and their statuses are the table in src/core/errors.ts; src/http/errors.ts maps every
 * thrown error to it), and the 503 of a database that cannot serve (docs/decisions/0044-database-failures.md),
 * for routes that answer an error themselves (a tus upload, the MCP endpoint).
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.ts';

/**
 * Retry-After (seconds) of a 503 DATABASE_UNAVAILABLE: about the time PostgreSQL takes to
 * restart, and as long as a request waits for a connection by default (decision 0044).
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The 503 for a database that cannot be reached or cannot serve now. */
export function databaseUnavailableError(cause: unknown): AppError {
  const err = new AppError('DATABASE_UNAVAILABLE', 'The database is unavailable; try again in a few seconds. Quote the requestId if it lasts.');
  return Object.assign(err, { cause });
}

/** The error body for `request`: `{ error: message, code, details?, ...extra, requestId }`. */
export function errorBody(request: FastifyRequest, code: string, message: string, details?: Record<string, unknown>, extra?: Record<string, unknown>) {
  return { error: message, code, ...(details ? { details } : {}), ...(extra ?? {}), requestId: request.id };
}
