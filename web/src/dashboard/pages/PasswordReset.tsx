/**
 * Password reset by email, outside the signed-in dashboard:
 * - /dashboard/forgot-password: the email to send a reset link to (POST /auth/password-reset);
 *   the answer is the same whether or not the email has an account.
 * - /dashboard/reset-password?token=...: the link from the mail; checks it (GET), then takes the
 *   new password (POST /auth/password-reset/confirm), which signs this browser in and every other
 *   session of the user out. A used, expired or unknown link says so and offers a new one.
 * Both say that reset is off when the server has no SMTP server (HERALD_SMTP_HOST).
 */
import { useEffect, useState } from 'react';
import { ApiError, rawRequest } from '../api.ts';
import { ErrorBox, Loading } from '../components.tsx';
import { Logo } from '../../shared/Header.tsx';
import { readConfig } from '../../shared/config.ts';

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="login-screen">
      <main className="card login-card" id="main">
        <Logo />
        {children}
        <p className="hint"><a href="/dashboard">Back to sign-in</a> · <a href="/">Home</a> · <a href="/docs">API docs</a></p>
      </main>
    </div>
  );
}

function ResetOff() {
  return (
    <Frame>
      <h1>Password reset is off</h1>
      <p>This Herald server sends no mail, so it cannot mail you a link. Ask its administrator to set a new password for you (<code>npx herald user password --email …</code>).</p>
    </Frame>
  );
}

function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // rawRequest: /auth/password-reset is a session route outside /v1, not in the OpenAPI document.
      const r = await rawRequest<{ message: string }>('POST', '/auth/password-reset', { email: email.trim() });
      setSent(r.message);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <Frame>
        <h1>Check your mail</h1>
        <p role="status">{sent}</p>
        <p className="muted">Nothing after a few minutes? Look in the spam folder, or send it again.</p>
        <p><button type="button" className="btn" onClick={() => setSent(null)}>Send it again</button></p>
      </Frame>
    );
  }
  return (
    <Frame>
      <h1>Forgot your password?</h1>
      <p>Enter the email you sign in with. We will mail you a link to choose a new password.</p>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="fp-email">Email</label>
          <input id="fp-email" type="email" autoComplete="username" required maxLength={320} value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        </div>
        <ErrorBox error={error} title="Could not send the link" />
        <button type="submit" className="btn btn-primary wide" disabled={busy || !email.trim()}>{busy ? 'Sending…' : 'Send me a reset link'}</button>
      </form>
    </Frame>
  );
}

const PROBLEMS: Record<string, string> = {
  used: 'This link has already been used',
  expired: 'This link has expired',
  unknown: 'This link is not valid',
};

function ResetPassword({ token }: { token: string }) {
  const [state, setState] = useState<'checking' | 'ok' | { reason: string; message: string }>('checking');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) { setState({ reason: 'unknown', message: 'The link has no token: open the link from the mail as it is.' }); return; }
    // rawRequest: /auth/password-reset is a session route outside /v1, not in the OpenAPI document.
    rawRequest<{ expiresAt: string }>('GET', `/auth/password-reset?token=${encodeURIComponent(token)}`)
      .then(() => setState('ok'))
      .catch((err: unknown) => setState(problemOf(err)));
  }, [token]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (password !== confirm) { setError(new Error('the two passwords differ: type the same new password twice')); return; }
    setBusy(true);
    setError(null);
    try {
      // rawRequest: /auth/password-reset/confirm is a session route outside /v1, not in the OpenAPI document.
      await rawRequest('POST', '/auth/password-reset/confirm', { token, password });
      window.location.assign('/dashboard');
    } catch (err) {
      if (err instanceof ApiError && (err.status === 410 || err.status === 404)) setState(problemOf(err));
      else setError(err);
      setBusy(false);
    }
  }

  if (state === 'checking') return <div className="center-screen"><Loading /></div>;
  if (state !== 'ok') {
    return (
      <Frame>
        <h1>{PROBLEMS[state.reason] ?? 'This link cannot be used'}</h1>
        <p className="alert alert-error" role="alert">{state.message}</p>
        <p><a className="btn btn-primary" href="/dashboard/forgot-password">Send me a new link</a></p>
      </Frame>
    );
  }
  return (
    <Frame>
      <h1>Choose a new password</h1>
      <p>Signing in with it signs you out everywhere else.</p>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="rp-password">New password <span className="hint">(at least 8 characters)</span></label>
          <input id="rp-password" type="password" autoComplete="new-password" required minLength={8} maxLength={1000} value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        </div>
        <div className="field">
          <label htmlFor="rp-confirm">Repeat the new password</label>
          <input id="rp-confirm" type="password" autoComplete="new-password" required minLength={8} maxLength={1000} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </div>
        <ErrorBox error={error} title="Could not set the password" />
        <button type="submit" className="btn btn-primary wide" disabled={busy}>{busy ? 'Saving…' : 'Set the new password and sign in'}</button>
      </form>
    </Frame>
  );
}

/** A refused link's reason (details.reason of the 404/410) and message. */
function problemOf(err: unknown): { reason: string; message: string } {
  if (err instanceof ApiError && (err.status === 404 || err.status === 410)) {
    return { reason: err.status === 404 ? 'unknown' : /used/.test(err.message) ? 'used' : 'expired', message: err.message };
  }
  return { reason: 'network', message: err instanceof Error ? err.message : 'Herald could not be reached. Check your connection and reload the page.' };
}

/** The forgot-password or reset-password screen, by the path. */
export default function PasswordReset() {
  if (!readConfig().passwordReset) return <ResetOff />;
  if (window.location.pathname.startsWith('/dashboard/reset-password')) return <ResetPassword token={new URLSearchParams(window.location.search).get('token') ?? ''} />;
  return <ForgotPassword />;
}
