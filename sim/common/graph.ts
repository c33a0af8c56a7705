/**
 * Graph API conventions shared by the Facebook, Instagram and Threads simulators
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling): times as
 * `2026-01-02T03:04:05+0000`, and the error envelope
 * `{error:{message, type, code, error_subcode?, fbtrace_id}}` whose type is OAuthException for
 * code 190 (token errors) and the API's own exception type otherwise.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export const graphTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000');

/** The Graph error answer of an API whose non-token errors have type `apiException`. */
export const graphErrors = (apiException: string) =>
  (reply: FastifyReply, status: number, code: number, message: string, extra: Record<string, unknown> = {}) =>
    reply.status(status).send({ error: { message, type: code === 190 ? 'OAuthException' : apiException, code, ...extra, fbtrace_id: randomBytes(8).toString('base64url') } });
