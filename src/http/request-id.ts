import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Uses a caller's `x-request-id` when it is a sane token (<=128 chars of [A-Za-z0-9._:-]), else a UUID. */
export function genRequestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given)) return given;
  return randomUUID();
}
