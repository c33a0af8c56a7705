/**
 * The sign-up page (/signup): with `?inviteToken=` the invitee of a team invite joins that
 * team; without one, a new account on the Free plan (only when HERALD_SIGNUP=open). Expired,
 * used and unknown invite links get a page saying so. On success the new user is signed in
 * and lands in the dashboard.
 */
import { useEffect, useState } from 'react';
import { ApiError, rawRequest } from '../api.ts';
import { ErrorBox, Loading } from '../components.tsx';
import { Logo } from '../../shared/Header.tsx';
import { readConfig } from '../../shared/config.ts';

interface InvitePreview { inviterName: string; scope: 'all' | 'profiles'; profiles: Array<{ _id: string; name: string }>; expiresAt: string }

const PROBLEM_TITLES: Record<string, string> = {
  expired: 'This invite has expired',
  used: 'This invite has already been used',
  unknown: 'This invite link is not valid',
};

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="login-screen">
      <main className="card login-card" id="main">
        <Logo />
        {children}
        <p className="hint"><a href="/">Home</a> · <a href="/docs">API docs</a> · <a href="/pricing">Pricing</a></p>
      </main>
    </div>
  );
}

export default function SignUp() {
  const token = new URLSearchParams(window.location.search).get('inviteToken');
  const [invite, setInvite] = useState<InvitePreview | null | undefined>(token ? undefined : null);
  const [problem, setProblem] = useState<{ reason: string; message: string } | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return;
    fetch(`/auth/invite?token=${encodeURIComponent(token)}`, { headers: { accept: 'application/json' } })
      .then(async (res) => {
        const body = await res.json().catch(() => ({}));
        if (res.ok) setInvite(body as InvitePreview);
        else setProblem({ reason: body?.details?.reason ?? 'unknown', message: body?.error ?? 'This invite link cannot be used.' });
      })
      .catch(() => setProblem({ reason: 'network', message: 'Herald could not be reached. Check your connection and reload the page.' }));
  }, [token]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // rawRequest: /auth/signup is a session route outside /v1, not in the OpenAPI document (no typed client path).
      await rawRequest('POST', '/auth/signup', { name: name.trim(), email: email.trim(), password, ...(token ? { inviteToken: token } : {}) });
      window.location.assign('/dashboard');
    } catch (err) {
      if (err instanceof ApiError && (err.status === 410 || err.status === 404) && token) setProblem({ reason: err.status === 404 ? 'unknown' : 'used', message: err.message });
      else setError(err);
      setBusy(false);
    }
  }

  if (problem) {
    return (
      <Frame>
        <h1>{PROBLEM_TITLES[problem.reason] ?? 'This invite cannot be used'}</h1>
        <p className="alert alert-error" role="alert">{problem.message}</p>
        <p><a className="btn" href="/dashboard">Go to sign-in</a></p>
      </Frame>
    );
  }
  if (invite === undefined) return <div className="center-screen"><Loading /></div>;
  if (!invite && !readConfig().signup) {
    return (
      <Frame>
        <h1>Sign-up is closed</h1>
        <p>This Herald server does not take new sign-ups. Ask its administrator for an account, or ask a team owner for an invite link.</p>
        <p><a className="btn" href="/dashboard">Go to sign-in</a></p>
      </Frame>
    );
  }

  return (
    <Frame>
      <h1>{invite ? `Join ${invite.inviterName}'s team` : 'Create your Herald account'}</h1>
      {invite
        ? <p data-testid="invite-scope">{invite.scope === 'all'
          ? 'You will see every profile of the account.'
          : <>You will see {invite.profiles.length === 1 ? 'the profile' : 'the profiles'} <strong>{invite.profiles.map((p) => p.name).join(', ')}</strong>.</>}</p>
        : <p>Start on the Free plan (10 posts a month, 2 profiles), with a default profile ready. Upgrade any time.</p>}
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="su-name">Name</label>
          <input id="su-name" autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        </div>
        <div className="field">
          <label htmlFor="su-email">Email</label>
          <input id="su-email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="su-password">Password <span className="hint">(at least 8 characters)</span></label>
          <input id="su-password" type="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <ErrorBox error={error} title="Could not create your account" />
        <button type="submit" className="btn btn-primary wide" disabled={busy}>{busy ? 'Creating your account…' : invite ? 'Join the team' : 'Create account'}</button>
      </form>
      <p className="hint">Already have an account? <a href="/dashboard">Sign in</a>.</p>
    </Frame>
  );
}
