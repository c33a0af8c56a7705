import { Component, lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, sessionApi, setSessionHandlers, type Session } from './api.ts';
import { Login } from './pages/Login.tsx';
import { Loading } from './components.tsx';
import { Logo } from '../shared/Header.tsx';

// Each screen is its own chunk: the sign-in screen loads only what it needs.
const CalendarPage = lazy(() => import('./pages/Calendar.tsx'));
const PostsPage = lazy(() => import('./pages/Posts.tsx'));
const ComposerPage = lazy(() => import('./pages/Composer.tsx'));
const PostDetailPage = lazy(() => import('./pages/PostDetail.tsx'));
const ProfilesPage = lazy(() => import('./pages/Profiles.tsx'));
const QueuePage = lazy(() => import('./pages/Queue.tsx'));
const ApiKeysPage = lazy(() => import('./pages/ApiKeys.tsx'));
const UsagePage = lazy(() => import('./pages/Usage.tsx'));
const AnalyticsPage = lazy(() => import('./pages/Analytics.tsx'));
const ClipsPage = lazy(() => import('./pages/Clips.tsx'));
const MediaPage = lazy(() => import('./pages/Media.tsx'));
const BulkPage = lazy(() => import('./pages/Bulk.tsx'));
const RedditPage = lazy(() => import('./pages/Reddit.tsx'));
const TeamPage = lazy(() => import('./pages/Team.tsx'));
const BillingPage = lazy(() => import('./pages/Billing.tsx'));
const ClientInvitesPage = lazy(() => import('./pages/ClientInvites.tsx'));
const AccountGroupsPage = lazy(() => import('./pages/AccountGroups.tsx'));
const WebhooksPage = lazy(() => import('./pages/Webhooks.tsx'));
const SignUpPage = lazy(() => import('./pages/SignUp.tsx'));
const PasswordResetPage = lazy(() => import('./pages/PasswordReset.tsx'));
const NeedsReviewPage = lazy(() => import('./pages/NeedsReview.tsx'));
const ReviewLinkPage = lazy(() => import('./pages/ReviewLink.tsx'));
const ConnectedAppsPage = lazy(() => import('./pages/ConnectedApps.tsx'));
const OAuthConsentPage = lazy(() => import('./pages/OAuthConsent.tsx'));
const ChooseConnectionPage = lazy(() => import('./pages/ConnectSelect.tsx').then((m) => ({ default: m.ChooseConnection })));
/** The toast region (./ui/toast.ts), loaded after the first screen. */
const Toasts = lazy(() => import('./ui/toast-region.tsx'));

/** Keeps the shell usable when a screen fails to render or its chunk cannot load (e.g. Herald was updated meanwhile). */
class ScreenBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) { return { error }; }
  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }
  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const stale = /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message);
    return (
      <div className="alert alert-error" role="alert">
        <p><strong>{stale ? 'Herald was updated while this page was open.' : 'This screen failed to load.'}</strong> {stale ? '' : error.message}</p>
        <button type="button" className="btn btn-sm" onClick={() => location.reload()}>Reload</button>
      </div>
    );
  }
}

/** Screens only the account owner (root user) sees; team members use the dashboard without them. */
const OWNER_ONLY = new Set(['/team', '/api-keys', '/billing', '/connected-apps']);

const NAV: Array<[string, string]> = [
  ['/calendar', 'Calendar'],
  ['/posts', 'Posts'],
  ['/review', 'Needs review'],
  ['/compose', 'New post'],
  ['/media', 'Media library'],
  ['/bulk', 'Bulk upload'],
  ['/profiles', 'Profiles & accounts'],
  ['/account-groups', 'Account groups'],
  ['/invites', 'Client invites'],
  ['/queue', 'Queue'],
  ['/reddit', 'Reddit'],
  ['/analytics', 'Analytics'],
  ['/clips', 'AI clips'],
  ['/team', 'Team'],
  ['/api-keys', 'API keys'],
  ['/connected-apps', 'AI assistants'],
  ['/webhooks', 'Webhooks'],
  ['/usage', 'Usage & plan'],
  ['/billing', 'Billing'],
];

function Shell({ session, onLogout }: { session: Session; onLogout: () => void }) {
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => { setMenuOpen(false); window.scrollTo(0, 0); document.getElementById('main')?.focus({ preventScroll: true }); }, [location]);
  // Sandbox mode (HERALD_SANDBOX=on) is labelled on every screen: GET /health says so.
  const [sandbox, setSandbox] = useState(false);
  useEffect(() => {
    fetch('/health').then((r) => r.json()).then((b: { sandbox?: boolean }) => setSandbox(b.sandbox === true)).catch(() => {});
  }, []);
  return (
    <div className="dash">
      <a className="skip-link" href="#main">Skip to content</a>
      {sandbox && <div className="alert alert-warn sandbox-banner" role="status" style={{ margin: 0, borderRadius: 0, textAlign: 'center' }}>
        <strong>Sandbox mode:</strong> platforms are local simulators; nothing is posted to real platforms.
      </div>}
      <header className="dash-header">
        <Logo />
        <button type="button" className="btn btn-ghost menu-btn" aria-expanded={menuOpen} aria-controls="dash-nav" onClick={() => setMenuOpen(!menuOpen)}>Menu</button>
        <nav className="dash-top-links" aria-label="Site">
          <a href="/">Home</a><a href="/docs">Docs</a><a href="/pricing">Pricing</a><a href="/dashboard" aria-current="page">Dashboard</a>
        </nav>
        <div className="user-box">
          <span className="user-email" title={session.user.email}>{session.user.name || session.user.email}</span>
          <button type="button" className="btn btn-sm" onClick={onLogout}>Sign out</button>
        </div>
      </header>
      <div className="dash-body">
        <nav id="dash-nav" className={`dash-nav${menuOpen ? ' open' : ''}`} aria-label="Dashboard">
          <ul>
            {NAV.filter(([href]) => session.user.isRoot || !OWNER_ONLY.has(href)).map(([href, label]) => {
              const active = location === href || (href !== '/compose' && location.startsWith(`${href}/`)) || (href === '/posts' && /^\/posts\/[^/]+/.test(location));
              return <li key={href}><Link href={href} aria-current={active ? 'page' : undefined} className={active ? 'active' : undefined}>{label}</Link></li>;
            })}
          </ul>
        </nav>
        <main id="main" className="dash-main" tabIndex={-1}>
          <ScreenBoundary resetKey={location}>
          <Suspense fallback={<Loading />}>
            <Switch>
              <Route path="/"><Redirect to="/calendar" replace /></Route>
              <Route path="/calendar" component={CalendarPage} />
              <Route path="/posts" component={PostsPage} />
              <Route path="/review" component={NeedsReviewPage} />
              <Route path="/compose">{() => <ComposerPage />}</Route>
              <Route path="/posts/:id/edit">{(p) => <ComposerPage postId={p.id} />}</Route>
              <Route path="/posts/:id">{(p) => <PostDetailPage id={p.id} />}</Route>
              <Route path="/profiles">{() => <ProfilesPage canCreateProfiles={session.user.profileAccess === 'all'} isOwner={session.user.isRoot} />}</Route>
              {/* Connect flows started through the API without redirect_url end here (the server's default). */}
              <Route path="/accounts">{() => <Redirect to={`/profiles${window.location.search}`} replace />}</Route>
              <Route path="/invites" component={ClientInvitesPage} />
              <Route path="/account-groups" component={AccountGroupsPage} />
              <Route path="/queue" component={QueuePage} />
              <Route path="/api-keys" component={ApiKeysPage} />
              <Route path="/connected-apps" component={ConnectedAppsPage} />
              <Route path="/oauth/consent" component={OAuthConsentPage} />
              <Route path="/webhooks" component={WebhooksPage} />
              <Route path="/team" component={TeamPage} />
              <Route path="/billing" component={BillingPage} />
              <Route path="/usage" component={UsagePage} />
              <Route path="/analytics" component={AnalyticsPage} />
              <Route path="/clips" component={ClipsPage} />
              <Route path="/media" component={MediaPage} />
              <Route path="/bulk" component={BulkPage} />
              <Route path="/reddit" component={RedditPage} />
              <Route path="/connect/:platform/:step" component={ChooseConnectionPage} />
              <Route><h1>Not found</h1><p>This dashboard page does not exist. <Link href="/calendar">Go to the calendar</Link>.</p></Route>
            </Switch>
          </Suspense>
          </ScreenBoundary>
        </main>
      </div>
      <Suspense fallback={null}><Toasts /></Suspense>
    </div>
  );
}

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);
  const qc = useQueryClient();

  const signedOut = useCallback(() => {
    setSessionHandlers(null, null);
    qc.clear();
    setSession(null);
  }, [qc]);

  const signedIn = useCallback((s: Session) => {
    setSessionHandlers(s.csrfToken, () => { setExpired(true); signedOut(); });
    setExpired(false);
    setSession(s);
  }, [signedOut]);

  useEffect(() => {
    sessionApi.current().then(signedIn, (err) => {
      if (err instanceof ApiError && err.status === 401) setSession(null);
      else setSession(null);
    });
  }, [signedIn]);

  const logout = useCallback(async () => {
    try { await sessionApi.logout(); } finally { signedOut(); }
  }, [signedOut]);

  // The sign-up page (/signup, open sign-up or a team invite) is served by this app, outside /dashboard.
  // A client's review link (/review/{token}): no login, no dashboard shell (decision 0059).
  if (window.location.pathname.startsWith('/review/')) return <Suspense fallback={<div className="center-screen"><Loading /></div>}><ReviewLinkPage /></Suspense>;
  if (window.location.pathname === '/signup') return <Suspense fallback={<div className="center-screen"><Loading /></div>}><SignUpPage /></Suspense>;
  // Forgot password and the reset link from the mail, signed in or not.
  if (/^\/dashboard\/(forgot|reset)-password\/?$/.test(window.location.pathname)) return <Suspense fallback={<div className="center-screen"><Loading /></div>}><PasswordResetPage /></Suspense>;
  if (session === undefined) return <div className="center-screen"><Loading /></div>;
  return (
    <Router base="/dashboard">
      {session === null
        ? <Login onSignedIn={signedIn} expired={expired} />
        : <Shell session={session} onLogout={logout} />}
    </Router>
  );
}
