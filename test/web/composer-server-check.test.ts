/**
 * The composer's server check (web/src/dashboard/composer/server-verdict.ts): when Herald cannot be
 * asked (no answer, or an error answer) the check is `unknown` with the reason, never fine; the
 * composer then says it could not check (test/browser/composer-rules.test.ts shows it in Chromium).
 */
import { describe, expect, it } from 'vitest';
import { couldNotCheckReason, serverCheckOf } from '../../web/src/dashboard/composer/server-verdict.ts';

const retry = () => {};
/** An error answer as the dashboard's client throws it (web/src/dashboard/api.ts ApiError: the message and the HTTP status). */
const answered = (status: number, message: string) => Object.assign(new Error(message), { status });
const asked = { enabled: true, current: true, pending: false, retry };

describe('composer server check', () => {
  it('is unknown, never fine, when Herald could not be asked: the reason tells a network failure from an error answer', () => {
    const network = serverCheckOf({ ...asked, error: new TypeError('Failed to fetch'), data: undefined });
    expect(network).toEqual({ state: 'unknown', reason: 'Herald could not be reached', retry });
    const down = serverCheckOf({ ...asked, error: answered(503, 'Service Unavailable'), data: undefined });
    expect(down).toMatchObject({ state: 'unknown', reason: 'Herald answered with a server error (HTTP 503)' });
    const limited = serverCheckOf({ ...asked, error: answered(429, 'Too many requests'), data: undefined });
    expect(limited).toMatchObject({ state: 'unknown', reason: 'Herald answered HTTP 429: Too many requests' });
    expect(couldNotCheckReason(answered(500, 'Internal server error'))).toBe('Herald answered with a server error (HTTP 500)');
  });

  it('is fine or lists the problems only from an answer; checking while typing or asking; idle while the composer\'s own checks fail', () => {
    expect(serverCheckOf({ ...asked, error: null, data: { valid: true, errors: [] } })).toEqual({ state: 'ok' });
    expect(serverCheckOf({ ...asked, error: null, data: { valid: false, errors: [{ platform: 'instagram', field: 'mediaItems.0', error: 'Too tall [rule instagram.image.aspect_ratio]' }] } }))
      .toEqual({ state: 'problems', problems: [{ platform: 'instagram', field: 'mediaItems.0', message: 'Too tall', rule: 'instagram.image.aspect_ratio' }] });
    expect(serverCheckOf({ ...asked, pending: true, error: null, data: undefined })).toEqual({ state: 'checking' });
    expect(serverCheckOf({ ...asked, current: false, error: null, data: undefined })).toEqual({ state: 'checking' });
    expect(serverCheckOf({ ...asked, enabled: false, error: new TypeError('Failed to fetch'), data: undefined })).toEqual({ state: 'idle' });
  });
});
