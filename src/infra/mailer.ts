/**
 * Outgoing mail through the SMTP server of HERALD_SMTP_* (nodemailer's SMTP transport,
 * https://nodemailer.com/smtp/): one connection per message (mail is rare: password resets), so
 * no idle connection outlives a send. Messages are plain text plus a simple HTML part.
 */
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../config.ts';

/** One message to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail; `close` ends the transport's connections. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * A mailer for `config`. TLS (nodemailer's `secure`, `requireTLS`, `ignoreTLS`): `implicit` is
 * TLS from the first byte; `starttls` requires the STARTTLS upgrade; `auto` is implicit on port
 * 465, else STARTTLS when the server offers it; `off` never uses TLS.
 */
export function createMailer(config: SmtpConfig): Mailer {
  const implicit = config.tls === 'implicit' || (config.tls === 'auto' && config.port === 465);
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: implicit,
    requireTLS: config.tls === 'starttls',
    ignoreTLS: config.tls === 'off',
    ...(config.user ? { auth: { user: config.user, pass: config.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(m) {
      await transport.sendMail({ from: config.from, to: m.to, subject: m.subject, text: m.text, ...(m.html ? { html: m.html } : {}) });
    },
    close() {
      transport.close();
    },
  };
}
