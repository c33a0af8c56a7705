import { useState } from 'react';
import { sessionApi, type Session } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { Logo } from '../../shared/Header.tsx';

export function Login({ onSignedIn, expired }: { onSignedIn: (s: Session) => void; expired: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

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
        <p className="hint">
          No password yet? Set one with <code>npx herald user password --email you@example.com</code>, or create a user
          with <code>npx herald user create --email … --password …</code>.
        </p>
        <p className="hint"><a href="/">Home</a> · <a href="/docs">API docs</a> · <a href="/pricing">Pricing</a></p>
      </main>
    </div>
  );
}
