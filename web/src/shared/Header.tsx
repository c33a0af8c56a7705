import type { ReactNode } from 'react';

export function Logo() {
  return (
    <a className="logo" href="/" aria-label="Herald home">
      <svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="#4338ca" /><path d="M9 8h4v6.5h6V8h4v16h-4v-6h-6v6H9z" fill="#fff" /></svg>
      <span>Herald</span>
    </a>
  );
}

/** The site header: logo, and links to /, /pricing and /dashboard (plus the docs). */
export function SiteHeader({ current, children }: { current?: '/' | '/docs' | '/pricing' | '/dashboard'; children?: ReactNode }) {
  const link = (href: string, label: string) => (
    <a href={href} aria-current={current === href ? 'page' : undefined}>{label}</a>
  );
  return (
    <header className="site-header">
      <div className="inner">
        <Logo />
        {children}
        <nav className="site-nav" aria-label="Main">
          {link('/', 'Home')}
          {link('/docs', 'Docs')}
          {link('/pricing', 'Pricing')}
          {link('/dashboard', 'Dashboard')}
        </nav>
      </div>
    </header>
  );
}

export function SkipLink({ target = 'main' }: { target?: string }) {
  return <a className="skip-link" href={`#${target}`}>Skip to content</a>;
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      Herald — self-hosted social media scheduling. <a href="/docs">API docs</a> · <a href="/pricing">Pricing</a> · <a href="/dashboard">Dashboard</a>
    </footer>
  );
}
