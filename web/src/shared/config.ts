/** Runtime configuration that Herald writes into `<meta name="herald-config">` (src/http/web.ts). */
export interface WebConfig {
  supportEmail: string;
  /** An OpenAI-compatible endpoint is configured: Ask Docs AI also writes answers. */
  docsAi: boolean;
  /** Self-service sign-up is open (HERALD_SIGNUP=open): "Get started" leads to /signup. */
  signup: boolean;
  /** Stripe billing is configured: checkout and customer-portal buttons are shown. */
  billing: boolean;
  /** An SMTP server is configured: the sign-in page offers a password reset by email. */
  passwordReset: boolean;
}

/** Where "Get started" leads: the sign-up page when sign-up is open, else the dashboard's sign-in. */
export function getStartedHref(c: WebConfig = readConfig()): string {
  return c.signup ? '/signup' : '/dashboard';
}

export function readConfig(): WebConfig {
  const raw = document.querySelector('meta[name="herald-config"]')?.getAttribute('content') ?? '';
  try {
    const c = JSON.parse(raw) as Partial<WebConfig>;
    return { supportEmail: c.supportEmail ?? 'support@localhost', docsAi: !!c.docsAi, signup: !!c.signup, billing: !!c.billing, passwordReset: !!c.passwordReset };
  } catch {
    // Vite's dev server serves the page without Herald's substitution.
    return { supportEmail: 'support@localhost', docsAi: false, signup: false, billing: false, passwordReset: false };
  }
}
