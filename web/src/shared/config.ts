/** Runtime configuration that Herald writes into `<meta name="herald-config">` (src/http/web.ts). */
export interface WebConfig {
  supportEmail: string;
  /** An OpenAI-compatible endpoint is configured: Ask Docs AI also writes answers. */
  docsAi: boolean;
}

export function readConfig(): WebConfig {
  const raw = document.querySelector('meta[name="herald-config"]')?.getAttribute('content') ?? '';
  try {
    const c = JSON.parse(raw) as Partial<WebConfig>;
    return { supportEmail: c.supportEmail ?? 'support@localhost', docsAi: !!c.docsAi };
  } catch {
    // Vite's dev server serves the page without Herald's substitution.
    return { supportEmail: 'support@localhost', docsAi: false };
  }
}
