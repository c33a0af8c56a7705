import { useMemo, useState } from 'react';
import { sessionApi, type Session } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { Logo } from '../../shared/Header.tsx';
import { readConfig } from '../../shared/config.ts';

/** The sign-in screen: email and password, with "Forgot your password?" when mail is configured and a sign-up link when sign-up is open. */
export function Login({ onSignedIn, expired }: { onSignedIn: (s: Session) => void; expired: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const config = useMemo(readConfig, []);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await sessionApi.login(email, password));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="login-screen">
      <main className="card login-card" id="main">
        <Logo />
        <h1>Sign in to the dashboard</h1>
        {expired && <p className="alert alert-info">Your session ended. Sign in again.</p>}
        <form onSubmit={submit} noValidate={false}>
          <div className="field">
            <label htmlFor="email">Email</label>
            <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          </div>
          <ErrorBox error={error} title="Could not sign in" />
          <button type="submit" className="btn btn-primary wide" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        </form>
        {config.passwordReset && <p className="login-forgot"><a href="/dashboard/forgot-password">Forgot your password?</a></p>}
        <p className="login-signup">
          {config.signup
            ? <>New to Herald? <a href="/signup">Create an account</a></>
            : <>No account yet? Ask the administrator of this Herald server, or a team owner for an invite link.</>}
        </p>
        <p className="hint"><a href="/">Home</a> · <a href="/docs">API docs</a> · <a href="/pricing">Pricing</a></p>
      </main>
    </div>
  );
}
