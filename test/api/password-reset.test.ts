/**
 * Password reset by email against the real app and a local SMTP server (smtp-server on loopback):
 * the link is mailed only to an existing account's address (the answer is the same for any email),
 * its token is random, stored hashed, usable once and for one hour; using it sets the password,
 * ends the user's other sessions and signs this browser in. Off (404) without SMTP; bad input is a
 * 400 naming the field; a cross-site request is refused; requests are limited per email.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../src/config.ts';
import { RESETS_PER_EMAIL_PER_HOUR } from '../../src/modules/password-reset/service.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { startLocalSmtp, type LocalSmtp } from '../support/smtp.ts';

let ctx: TestContext;
let off: TestContext;
let smtp: LocalSmtp;
let now = Date.now();
const email = 'forgetful@herald.test';
const password = 'the old password';
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };

beforeAll(async () => {
  smtp = await startLocalSmtp();
  [ctx, off] = await Promise.all([
    createTestApp({ env: smtp.env, deps: { clock: () => new Date(now) } }),
    createTestApp(),
  ]);
  await ctx.services.users.createRootUser({ email, password, name: 'Forgetful', plan: 'basic' });
  await off.services.users.createRootUser({ email, password, name: 'Forgetful', plan: 'basic' });
});
afterAll(async () => {
  await ctx?.close();
  await off?.close();
  await smtp?.close();
});

const ask = (c: TestContext, payload: unknown, headers: Record<string, string> = origin) => c.app.inject({ method: 'POST', url: '/auth/password-reset', headers, payload: payload as Record<string, unknown> });
const confirm = (payload: unknown, headers: Record<string, string> = origin) => ctx.app.inject({ method: 'POST', url: '/auth/password-reset/confirm', headers, payload: payload as Record<string, unknown> });
const login = (p: string) => ctx.app.inject({ method: 'POST', url: '/auth/login', headers: origin, payload: { email, password: p } });
const cookieOf = (res: { headers: Record<string, unknown> }) => String([res.headers['set-cookie']].flat()[0]).split(';')[0];
/** The token of the reset link in a mail. */
const tokenIn = (text: string) => /\/dashboard\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];

describe('password reset by email', () => {
  it('is off without SMTP: 404 naming why, and the pages are told so', async () => {
    const res = await ask(off, { email });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'password_reset_off' } });
    expect((await off.app.inject({ method: 'GET', url: '/auth/password-reset?token=x' })).statusCode).toBe(404);
    expect(off.services.passwordReset.enabled).toBe(false);
    expect(ctx.services.passwordReset.enabled).toBe(true);
  });

  it('answers the same for an unknown email and mails nobody', async () => {
    const res = await ask(ctx, { email: 'nobody@herald.test' });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toMatch(/If an account uses this email/);
    const known = await ask(ctx, { email: email.toUpperCase() });
    expect(known.statusCode).toBe(202);
    expect(known.json()).toEqual(res.json());
    await smtp.waitFor(email);
    expect(smtp.mails.filter((m) => m.to.includes('nobody@herald.test'))).toEqual([]);
  });

  it('mails a single-use link whose token is random and stored only as a hash', async () => {
    const mail = await smtp.waitFor(email);
    expect(mail.from).toBe('herald@herald.test');
    expect(mail.raw).toMatch(/^Subject: Reset your Herald password/m);
    const token = tokenIn(mail.text)!;
    expect(token).toBeDefined();
    const { rows } = await ctx.db.query<{ token_hash: Buffer; expires_at: Date; created_at: Date }>('SELECT token_hash, expires_at, created_at FROM password_resets');
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash.equals(createHash('sha256').update(token).digest())).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBe(3_600_000);
    const check = await ctx.app.inject({ method: 'GET', url: `/auth/password-reset?token=${token}` });
    expect(check.statusCode).toBe(200);
    expect(check.json().expiresAt).toBe(rows[0].expires_at.toISOString());
  });

  it('refuses bad input with a 400 naming the field, and a request from another site', async () => {
    for (const [res, field] of [
      [await ask(ctx, {}), 'email'], [await ask(ctx, { email: 'not an email' }), 'email'],
      [await confirm({ password: 'a new password' }), 'token'], [await confirm({ token: 'x'.repeat(43), password: 'short' }), 'password'],
    ] as const) {
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().details.fields).join(' ')).toContain(field);
    }
    expect((await ask(ctx, { email }, { origin: 'https://evil.example', host: 'localhost:80' })).statusCode).toBe(403);
    const token = tokenIn((await smtp.waitFor(email)).text)!;
    expect((await confirm({ token, password: 'a new password' }, { origin: 'https://evil.example', host: 'localhost:80' })).statusCode).toBe(403);
    expect((await confirm({ token: 'A'.repeat(43), password: 'a new password' })).json()).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'unknown' } });
  });

  it('sets the new password, ends every other session and signs this browser in; the link works once', async () => {
    const other = await login(password);
    expect(other.statusCode).toBe(200);
    const otherCookie = cookieOf(other);
    const session = () => ctx.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: otherCookie } });
    expect((await session()).statusCode).toBe(200);
    const token = tokenIn((await smtp.waitFor(email)).text)!;
    const res = await confirm({ token, password: 'a brand new password' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ email });
    const fresh = cookieOf(res);
    expect(fresh).toMatch(/^herald_session=/);
    expect((await ctx.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: fresh } })).statusCode).toBe(200);
    expect((await session()).statusCode).toBe(401);
    expect((await login(password)).statusCode).toBe(401);
    expect((await login('a brand new password')).statusCode).toBe(200);
    // Single use: the same link again, and the check, answer 410 used.
    const again = await confirm({ token, password: 'yet another password' });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'GONE', details: { reason: 'used' } });
    expect((await ctx.app.inject({ method: 'GET', url: `/auth/password-reset?token=${token}` })).statusCode).toBe(410);
    expect((await login('a brand new password')).statusCode).toBe(200);
  });

  it('expires after one hour', async () => {
    const before = smtp.mails.filter((m) => m.to.includes(email)).length;
    expect((await ask(ctx, { email })).statusCode).toBe(202);
    const token = tokenIn((await smtp.waitFor(email, { after: before })).text)!;
    now += 3_600_000 + 1_000;
    const res = await confirm({ token, password: 'too late password' });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ code: 'GONE', details: { reason: 'expired' } });
    expect((await login('too late password')).statusCode).toBe(401);
  });

  it(`limits requests to ${RESETS_PER_EMAIL_PER_HOUR} an hour per email`, async () => {
    now += 2 * 3_600_000;
    const codes: number[] = [];
    for (let i = 0; i <= RESETS_PER_EMAIL_PER_HOUR; i++) codes.push((await ask(ctx, { email: 'limited@herald.test' })).statusCode);
    expect(codes).toEqual([...Array(RESETS_PER_EMAIL_PER_HOUR).fill(202), 429]);
  });

  it('reads SMTP settings from HERALD_SMTP_* and names a bad one', () => {
    const base = { HERALD_DATA_DIR: '/tmp/x' };
    expect(loadConfig(base).smtp).toBeNull();
    expect(loadConfig({ ...base, HERALD_SMTP_HOST: 'smtp.example.com', HERALD_SUPPORT_EMAIL: 'help@example.com' }).smtp)
      .toEqual({ host: 'smtp.example.com', port: 587, tls: 'auto', user: undefined, password: undefined, from: 'Herald <help@example.com>' });
    expect(loadConfig({ ...base, HERALD_SMTP_HOST: 'smtp.example.com', HERALD_SMTP_TLS: 'implicit', HERALD_SMTP_USER: 'u', HERALD_SMTP_PASSWORD: 'p' }).smtp)
      .toMatchObject({ port: 465, tls: 'implicit', user: 'u', password: 'p' });
    const problems = (env: Record<string, string>) => { try { loadConfig({ ...base, ...env }); return ''; } catch (e) { return (e as ConfigError).problems.join('\n'); } };
    expect(problems({ HERALD_SMTP_HOST: 'smtp.example.com', HERALD_SMTP_USER: 'u' })).toMatch(/^HERALD_SMTP_PASSWORD:/);
    expect(problems({ HERALD_SMTP_PORT: '25' })).toMatch(/^HERALD_SMTP_PORT: needs HERALD_SMTP_HOST/);
    expect(problems({ HERALD_SMTP_HOST: 'smtp.example.com', HERALD_SMTP_FROM: 'not an address' })).toMatch(/^HERALD_SMTP_FROM:/);
    expect(problems({ HERALD_SMTP_HOST: 'smtp.example.com', HERALD_SMTP_TLS: 'maybe' })).toMatch(/HERALD_SMTP_TLS/);
  });
});
