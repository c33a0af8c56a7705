/**
 * A local SMTP server for tests (the smtp-server package) on loopback: it accepts every message
 * without authentication or TLS and keeps it, so tests read the mail Herald sends.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as received: envelope, raw source and the decoded text (quoted-printable undone). */
export interface ReceivedMail { from: string; to: string[]; raw: string; text: string }

export interface LocalSmtp {
  port: number;
  mails: ReceivedMail[];
  /** The environment pointing Herald at this server (HERALD_SMTP_*). */
  env: Record<string, string>;
  /** Waits (up to `timeoutMs`) for a message to `to` beyond the first `after` ones to it, and answers it. */
  waitFor(to: string, opts?: { after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Undoes quoted-printable (RFC 2045): soft line breaks and =XX bytes. */
function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Starts the server on 127.0.0.1 (a free port). */
export async function startLocalSmtp(): Promise<LocalSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false, banner: 'herald test',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw, text: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port, mails,
    env: { HERALD_SMTP_HOST: '127.0.0.1', HERALD_SMTP_PORT: String(port), HERALD_SMTP_TLS: 'off', HERALD_SMTP_FROM: 'Herald <herald@herald.test>' },
    async waitFor(to, opts = {}) {
      const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
      for (;;) {
        const toHim = mails.filter((m) => m.to.includes(to.toLowerCase()));
        if (toHim.length > (opts.after ?? 0)) return toHim[opts.after ?? 0];
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${opts.timeoutMs ?? 10_000} ms (${mails.length} received)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
