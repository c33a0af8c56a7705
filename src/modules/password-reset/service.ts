/**
 * Password reset by email (docs/decisions/0050-password-reset-by-email.md): a user who forgot
 * their password asks for a link; Herald mails it through the SMTP server of HERALD_SMTP_*.
 * The link's token is 32 random bytes, stored only as its SHA-256, usable once, for an hour.
 * Using it sets the new password, ends every session of the user and signs this browser in.
 * Off (and the dashboard's link hidden) when SMTP is not configured.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { Mailer } from '../../infra/mailer.ts';
import type { Db } from '../../storage/db.ts';
import { countHit } from '../../storage/rate-limit-counters.ts';
import type { SessionsService } from '../sessions/service.ts';
import type { UsersService } from '../users/service.ts';
import { createPasswordResetRepository } from './repository.ts';

/** How long a reset link works (1 hour). */
export const RESET_TTL_MS = 3_600_000;
/** Reset requests per email address an hour. */
export const RESETS_PER_EMAIL_PER_HOUR = 5;
/** Reset requests per client address an hour. */
export const RESETS_PER_ADDRESS_PER_HOUR = 20;

/** A reset token as Herald makes it: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

const off = () => new AppError('NOT_FOUND', 'Password reset by email is off on this server (no SMTP server is configured); ask its administrator for a new password', { reason: 'password_reset_off' });
const unknownLink = () => new AppError('NOT_FOUND', 'This password reset link is not valid; ask for a new one', { reason: 'unknown' });

/** The mail with the link (plain text and HTML). */
function resetMail(link: string): { subject: string; text: string; html: string } {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return {
    subject: 'Reset your Herald password',
    text: `Someone (hopefully you) asked to reset the password of your Herald account.\n\nChoose a new password here (the link works once, for one hour):\n${link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.\n`,
    html: `<p>Someone (hopefully you) asked to reset the password of your Herald account.</p><p><a href="${esc(link)}">Choose a new password</a> (the link works once, for one hour).</p><p>If you did not ask for this, ignore this mail: your password stays as it is.</p>`,
  };
}

export function createPasswordResetService(deps: {
  db: Db; sessions: SessionsService; users: UsersService; mailer: Mailer | null; publicUrl: string; clock: () => Date;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { db, sessions, users, mailer, publicUrl, clock } = deps;
  const repo = createPasswordResetRepository(db);

  /** Why a link cannot be used: unknown (404), used or expired (410). */
  async function refusal(tokenHash: Buffer): Promise<AppError> {
    const row = await repo.find(tokenHash);
    if (!row) return unknownLink();
    if (row.used_at) return new AppError('GONE', 'This password reset link has already been used; ask for a new one', { reason: 'used' });
    return new AppError('GONE', 'This password reset link has expired; ask for a new one', { reason: 'expired' });
  }

  return {
    /** Whether password reset by email is on (an SMTP server is configured). */
    enabled: mailer !== null,

    /**
     * Mails a reset link to the user with this email, if there is one. The answer is the same
     * either way (no one learns which emails have an account); the mail is sent after it.
     * @throws AppError NOT_FOUND when reset is off, RATE_LIMITED after too many requests for the
     *   email or from the client address.
     */
    async request(input: { email: string; ip?: string }): Promise<void> {
      if (!mailer) throw off();
      const email = input.email.trim().toLowerCase();
      const now = clock();
      const hits = await Promise.all([
        countHit(db, `password-reset:email:${email}`, 3_600_000, now.getTime()),
        ...(input.ip ? [countHit(db, `password-reset:ip:${input.ip}`, 3_600_000, now.getTime())] : []),
      ]);
      if (hits[0].count > RESETS_PER_EMAIL_PER_HOUR || (hits[1] && hits[1].count > RESETS_PER_ADDRESS_PER_HOUR)) {
        throw new AppError('RATE_LIMITED', 'Too many password reset requests; try again in an hour', { window: '1 hour' });
      }
      const user = await users.byEmail(email);
      if (!user) return;
      const token = randomBytes(32).toString('base64url');
      await repo.insert(sha256(token), user.userId, now, new Date(now.getTime() + RESET_TTL_MS), input.ip ?? null);
      void repo.prune(now).catch(() => {});
      const link = `${publicUrl}/dashboard/reset-password?token=${token}`;
      // Not awaited: the answer must not take longer when the email has an account.
      mailer.send({ to: input.email.trim(), ...resetMail(link) })
        .catch((err: Error) => deps.log?.warn({ err: err.message, userId: user.userId }, 'password reset: the mail could not be sent'));
    },

    /**
     * Whether a link can still be used, and until when.
     * @throws AppError NOT_FOUND for an unknown link (or reset off), GONE for a used or expired one.
     */
    async check(token: string): Promise<{ expiresAt: string }> {
      if (!mailer) throw off();
      if (!TOKEN.test(token)) throw unknownLink();
      const row = await repo.find(sha256(token));
      if (!row || row.used_at || row.expires_at <= clock()) throw await refusal(sha256(token));
      return { expiresAt: row.expires_at.toISOString() };
    },

    /**
     * Uses a link: sets the new password, uses up every open link of the user, ends all of the
     * user's sessions (one transaction), then opens a session for this browser.
     * @throws AppError VALIDATION_ERROR naming password, NOT_FOUND for an unknown link (or reset
     *   off), GONE for a used or expired one.
     */
    async reset(input: { token: string; password: string; userAgent?: string; ip?: string; browserToken?: string }) {
      if (!mailer) throw off();
      if (input.password.length < 8) throw new AppError('VALIDATION_ERROR', 'Invalid password: must be at least 8 characters', { fields: { password: ['must be at least 8 characters'] } });
      if (!TOKEN.test(input.token)) throw unknownLink();
      const tokenHash = sha256(input.token);
      const userId = await db.tx(async (client) => {
        const id = await repo.consume(client, tokenHash, clock());
        if (!id) return null;
        await sessions.setPasswordById(id, input.password, client);
        return id;
      });
      if (!userId) throw await refusal(tokenHash);
      return sessions.openFor(userId, { userAgent: input.userAgent, ip: input.ip, browserToken: input.browserToken });
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
