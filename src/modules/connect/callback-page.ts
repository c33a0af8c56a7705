/**
 * The page the public OAuth callback answers for a state that is already used or expired: a
 * state gives at most one redirect (docs/decisions/0046-connect-redirect-origins.md), so a
 * replayed or late callback says what happened here instead of sending the browser anywhere.
 */
import type { FastifyReply } from 'fastify';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Answers 400 with an HTML page saying the connection link was used or expired; `dashboard` is linked, not redirected to. */
export function spentStatePage(reply: FastifyReply, dashboard: string): FastifyReply {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><title>Connection link already used · Herald</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.55;color:#14151a;background:#f6f7fb}
main{min-height:100vh;display:grid;place-items:center;padding:20px}.card{max-width:480px;background:#fff;border:1px solid #dcdfe8;border-radius:10px;padding:28px}
h1{font-size:1.4rem;margin:0 0 10px}a{color:#4338ca}</style></head>
<body><main><div class="card"><h1>This connection link was already used or has expired</h1>
<p>Each connection link works once, within an hour. Nothing was changed by opening it again.</p>
<p>Start the connection again from the app you were using, or from <a href="${esc(dashboard)}">your Herald dashboard</a>.</p></div></main></body></html>`;
  return reply.status(400).header('content-security-policy', CSP).header('x-frame-options', 'DENY').header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}
