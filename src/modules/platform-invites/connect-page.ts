/**
 * The no-login page behind a platform invite's `inviteUrl`
 * (`/v1/platform-invites/{token}/connect`; docs/decisions/0037-platform-invites-and-shared-credentials.md).
 *
 * Server-rendered HTML in the web app's look (its colours, buttons and cards), with no script:
 * - GET: who invited the visitor and for which profile (brand), and the platform's connect step:
 *   a button that starts the OAuth flow (POST, then 303 to the platform), or for a platform whose
 *   connect shape is an app password (Bluesky) its form, with the shape's labels
 *   (docs/decisions/0051-platform-connect-contract.md), or for a bot token (Telegram) the token
 *   form with the shape's steps; the token then leads to the choice page below (decision 0057). After the flow, the same page (`?connected=<platform>`) says "connected,
 *   you can close this page"; any other visit of a used invite answers 410 "already used".
 *   Unknown or revoked tokens answer 404, expired ones 410, each with a page saying so. A used,
 *   expired or unknown invite starts nothing (no OAuth state, no redirect to the platform).
 * - GET/POST `.../connect/select`: the choice of a flow started here, for a platform whose connect
 *   shape has a choose step (a Facebook page, a LinkedIn author); the selection must belong to this invite.
 *
 * The connect flow acts for the inviter limited to the invite's profile (service `actingFor`);
 * the visitor gets no cookie, no session and no key. Storing the account uses the invite up in
 * the same transaction (service `useWithin`), so one invite connects one account. Form posts
 * must come from this origin (the Origin check of dashboard sessions). The referrer policy is
 * same-origin: the token in the address never goes to the platform as a Referer, while the form
 * posts still carry this origin (with no-referrer, browsers send `Origin: null`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { PLATFORM_LABELS, PLATFORMS, type OAuthPlatform } from '../../shared/platforms.ts';
import type { AppPasswordShape, BotTokenShape, ChooseStep, CredentialField, InstanceOAuthShape, PlatformId } from '../../platforms/types.ts';
import type { Services } from '../../services.ts';
import { connectWithCredentials } from '../connect/credentials.ts';
import { assertSameOrigin } from '../sessions/http.ts';
import type { InviteForPage } from './service.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https: http:; form-action 'self' https: http:; base-uri 'none'; frame-ancestors 'none'";

/** The web app's tokens and components (web/src/shared/base.css), inlined: this page loads no script or bundle. */
const STYLE = `:root{--bg-soft:#f6f7fb;--bg-mute:#eef0f6;--fg:#14151a;--fg-soft:#474b59;--fg-mute:#5f6475;--border:#dcdfe8;--accent:#4338ca;--accent-strong:#3730a3;
--accent-soft:#eef0ff;--ok:#15803d;--ok-soft:#e8f7ee;--err-soft:#fdecec;--radius:10px;--shadow:0 1px 2px rgb(16 24 40/6%),0 1px 3px rgb(16 24 40/10%);
--font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue","Noto Sans","DejaVu Sans",Arial,sans-serif}
*,*::before,*::after{box-sizing:border-box}body{margin:0;font-family:var(--font);font-size:16px;line-height:1.55;color:var(--fg);background:var(--bg-soft)}
main{min-height:100vh;display:grid;place-items:center;padding:20px}.card{width:100%;max-width:480px;background:#fff;border:1px solid var(--border);border-radius:var(--radius);padding:28px;box-shadow:var(--shadow)}
.logo{display:inline-flex;align-items:center;gap:9px;font-weight:700;font-size:1.15rem;color:var(--fg);margin-bottom:18px}.logo img{width:30px;height:30px}
h1{font-size:1.45rem;line-height:1.25;margin:0 0 10px}p{margin:0 0 12px}.muted{color:var(--fg-mute);font-size:.9rem}strong{overflow-wrap:anywhere}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:6px;font:inherit;font-weight:600;font-size:.95rem;line-height:1.2;padding:11px 16px;border-radius:8px;
border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;width:100%;margin-top:6px}.btn:hover{background:var(--accent-strong)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}label{font-weight:600;font-size:.92rem}.field{display:grid;gap:5px;margin-bottom:14px}
input[type=text],input[type=password]{font:inherit;font-size:.95rem;color:var(--fg);background:#fff;border:1px solid #b9bdcb;border-radius:8px;padding:9px 10px;width:100%}
.choice{display:flex;align-items:center;gap:10px;padding:10px 12px;border:1px solid var(--border);border-radius:8px;margin-bottom:8px;font-weight:500}
.choice input{accent-color:var(--accent)}.alert{padding:10px 14px;border-radius:8px;border:1px solid;margin:0 0 14px}
.alert-error{background:var(--err-soft);border-color:#f3c4c4;color:#7f1212}.done{display:grid;place-items:center;width:52px;height:52px;border-radius:999px;background:var(--ok-soft);color:var(--ok);font-size:1.6rem;font-weight:700;margin-bottom:12px}
.hint{color:var(--fg-mute);font-size:.85rem;font-weight:400}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="same-origin"><title>${esc(title)} · Herald</title><link rel="icon" href="/favicon.svg"><style>${STYLE}</style></head>
<body><main><div class="card"><div class="logo"><img src="/favicon.svg" alt=""> Herald</div>${body}</div></main></body></html>`;
}

const ERROR_TEXT: Record<string, string> = {
  access_denied: 'The authorization was cancelled on the platform. You can try again.',
  connection_failed: 'The connection did not complete. Please try again.',
  invite_unavailable: 'This invite was used or expired while you were connecting.',
};

const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$', description: 'The invite token (base64url)' }) });

/** What the invite's connect page uses (connecting with an app password stores through accounts and profiles). */
export type ConnectPageServices = Pick<Services, 'accounts' | 'adapters' | 'choose' | 'oauthConnect' | 'platformInvites' | 'profiles' | 'config'>;

export const connectPageRoutes: FastifyPluginAsyncTypebox<{ services: ConnectPageServices }> = async (app, { services }) => {
  const invites = services.platformInvites;
  // Plain HTML forms post application/x-www-form-urlencoded (this plugin only).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const send = (reply: FastifyReply, status: number, title: string, body: string) =>
    reply.status(status).header('content-security-policy', CSP).header('x-frame-options', 'DENY').header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8').send(page(title, body));

  const notFoundPage = (reply: FastifyReply) => send(reply, 404, 'Invite not found',
    '<h1>This invite link is not valid</h1><p>It may have been revoked or copied incompletely. Ask the person who sent it for a new link.</p>');

  async function connectedName(inv: InviteForPage): Promise<string | null> {
    if (!inv.row.account_id) return null;
    try {
      const a = await services.accounts.get(invites.actingFor(inv.row), inv.row.account_id);
      return a.displayName !== a.username ? `${a.displayName} (@${a.username})` : `@${a.username}`;
    } catch {
      return null;
    }
  }

  const intro = (inv: InviteForPage) => {
    const who = inv.inviterName ? `<strong>${esc(inv.inviterName)}</strong>${inv.inviterEmail && inv.inviterEmail !== inv.inviterName ? ` (${esc(inv.inviterEmail)})` : ''}` : 'A Herald user';
    return `<p>${who} invited you to connect your ${esc(PLATFORM_LABELS[inv.row.platform])} account to <strong>${esc(inv.profileName)}</strong>.</p>`;
  };

  /**
   * Answers the page of an invite that can no longer connect, and says so (true); false for an
   * open invite. A used invite shows "connected" on the visit the flow ends on (`?connected=` its
   * platform) and "already used" on any other visit; an expired one shows "expired".
   */
  async function answeredClosed(reply: FastifyReply, inv: InviteForPage, connected?: string): Promise<boolean> {
    const label = PLATFORM_LABELS[inv.row.platform];
    if (inv.state === 'used' && connected === inv.row.platform) {
      const name = await connectedName(inv);
      send(reply, 200, 'Connected', `<div class="done" aria-hidden="true">✓</div><h1>Connected, you can close this page</h1>
<p>Your ${esc(label)} account${name ? ` <strong>${esc(name)}</strong>` : ''} is connected to <strong>${esc(inv.profileName)}</strong>.</p>
<p class="muted">This invite link has been used and no longer works. You have no access to anything else.</p>`);
      return true;
    }
    if (inv.state === 'used') {
      send(reply, 410, 'Invite already used', `<h1>This invite has already been used</h1>${intro(inv)}
<p>A ${esc(label)} account was connected with it; an invite link works once. Ask ${inv.inviterName ? esc(inv.inviterName) : 'the person who sent it'} for a new link if you need to connect another account.</p>`);
      return true;
    }
    if (inv.state === 'expired') {
      send(reply, 410, 'Invite expired', `<h1>This invite has expired</h1>${intro(inv)}
<p>Invites are valid for 7 days. Ask ${inv.inviterName ? esc(inv.inviterName) : 'the person who sent it'} for a new link.</p>`);
      return true;
    }
    return false;
  }

  /** The platform's choose step, if its connect shape has one. */
  const chooseStep = (platform: PlatformId): ChooseStep | undefined => {
    const shape = services.adapters.connectShape(platform);
    return shape.kind === 'oauth' || shape.kind === 'bot-token' ? shape.choose : undefined;
  };

  /** A field's label, with its hint after it. */
  const fieldLabel = (f: CredentialField) => `${esc(f.label)}${f.hint ? ` <span class="hint">${esc(f.hint)}</span>` : ''}`;

  /** The app-password form of `platform` (posted to `.../connect/{platform}`). */
  const credentialsForm = (base: string, platform: PlatformId, shape: AppPasswordShape, identifier: string) => {
    const { identifier: id, secret } = shape.form;
    return `<form method="post" action="${base}/${platform}">
<div class="field"><label for="identifier">${fieldLabel(id)}</label><input id="identifier" name="identifier" type="text" autocomplete="${esc(id.autocomplete)}" required maxlength="253" placeholder="${esc(id.placeholder)}" value="${esc(identifier)}"></div>
<div class="field"><label for="appPassword">${fieldLabel(secret)}</label><input id="appPassword" name="appPassword" type="password" autocomplete="${esc(secret.autocomplete)}" required maxlength="100" placeholder="${esc(secret.placeholder)}"></div>
<button class="btn" type="submit">Connect ${esc(PLATFORM_LABELS[platform])}</button></form>`;
  };

  /** The bot-token form of `platform` (posted to `.../connect/{platform}`), after the shape's steps. */
  const botTokenForm = (base: string, platform: PlatformId, shape: BotTokenShape) => `<ol class="muted">${shape.form.steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>
<form method="post" action="${base}/${platform}">
<div class="field"><label for="botToken">${fieldLabel(shape.token)}</label><input id="botToken" name="botToken" type="password" autocomplete="${esc(shape.token.autocomplete)}" required maxlength="200" placeholder="${esc(shape.token.placeholder)}"></div>
<button class="btn" type="submit">Continue</button></form>`;
  /** The instance form of an instance-oauth platform (posted to `.../connect`, then on to the instance's authorization page). */
  const instanceForm = (base: string, platform: PlatformId, shape: InstanceOAuthShape, instance: string) => `<form method="post" action="${base}">
<div class="field"><label for="instance">${fieldLabel(shape.instance)}</label><input id="instance" name="instance" type="text" autocomplete="${esc(shape.instance.autocomplete)}" required maxlength="300" placeholder="${esc(shape.instance.placeholder)}" value="${esc(instance)}"></div>
<button class="btn" type="submit">Continue to ${esc(PLATFORM_LABELS[platform])}</button></form>`;

  function openPage(reply: FastifyReply, inv: InviteForPage, token: string, opts: { error?: string; status?: number; identifier?: string } = {}) {
    const label = PLATFORM_LABELS[inv.row.platform];
    const base = `/v1/platform-invites/${encodeURIComponent(token)}/connect`;
    const alert = opts.error ? `<div class="alert alert-error" role="alert">${esc(opts.error)}</div>` : '';
    const shape = services.adapters.connectShape(inv.row.platform);
    const step = shape.kind === 'app-password'
      ? credentialsForm(base, inv.row.platform, shape, opts.identifier ?? '')
      : shape.kind === 'bot-token' ? botTokenForm(base, inv.row.platform, shape)
      : shape.kind === 'instance-oauth' ? instanceForm(base, inv.row.platform, shape, opts.identifier ?? '')
      : `<form method="post" action="${base}"><button class="btn" type="submit">Continue to ${esc(label)}</button></form>`;
    return send(reply, opts.status ?? 200, `Connect your ${label} account`, `<h1>Connect your ${esc(label)} account</h1>${intro(inv)}
<p class="muted">They will be able to publish to this account for ${esc(inv.profileName)}. You do not get access to their Herald workspace, and this link works once.</p>
${alert}${step}<p class="muted" style="margin-top:14px">Link valid until ${esc(inv.row.expires_at.toUTCString())}.</p>`);
  }

  /**
   * The open invite of the token, or null once the page to show instead was answered (404 unknown
   * or revoked, 410 used or expired, "connected" after the flow): the caller then stops and starts
   * nothing. (A reply is never handed back through an async function: `await` on a reply waits
   * for it to be sent and yields undefined.)
   */
  async function openInvite(token: string, reply: FastifyReply, connected?: string): Promise<InviteForPage | null> {
    const inv = await invites.forPage(token);
    if (!inv) {
      notFoundPage(reply);
      return null;
    }
    return (await answeredClosed(reply, inv, connected)) ? null : inv;
  }

  app.get('/platform-invites/:token/connect', {
    config: { public: true },
    schema: {
      hide: true, params: TokenParams,
      querystring: Type.Object({ connected: Type.Optional(Type.String({ maxLength: 40 })), error: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: true }),
    },
  }, async (req, reply) => {
    const inv = await openInvite(req.params.token, reply, req.query.connected);
    if (!inv) return reply;
    const error = req.query.error ? ERROR_TEXT[req.query.error] ?? ERROR_TEXT.connection_failed : undefined;
    return openPage(reply, inv, req.params.token, { error });
  });

  app.post('/platform-invites/:token/connect', { config: { public: true }, schema: { hide: true, params: TokenParams } }, async (req, reply) => {
    assertSameOrigin(req, services);
    const inv = await openInvite(req.params.token, reply);
    if (!inv) return reply;
    const shape = services.adapters.connectShape(inv.row.platform);
    if (shape.kind !== 'oauth' && shape.kind !== 'instance-oauth') return reply.redirect(invites.inviteUrl(req.params.token), 303);
    // An instance-oauth platform: the instance the invitee named in the form.
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const instance = shape.kind === 'instance-oauth' && typeof body.instance === 'string' ? body.instance.trim().slice(0, 300) : undefined;
    if (shape.kind === 'instance-oauth' && !instance) return openPage(reply, inv, req.params.token, { status: 400, error: `Enter your ${shape.instance.label.toLowerCase()} first.` });
    try {
      const out = await services.oauthConnect.start(invites.actingFor(inv.row), inv.row.platform as OAuthPlatform, inv.row.profile_id,
        invites.inviteUrl(req.params.token), { inviteId: inv.row.id, ...(instance ? { instance } : {}) });
      return reply.redirect(out.authUrl, 303);
    } catch (err) {
      // The instance named is not usable (not a host name, a private address, registration refused): say why, keep what was typed.
      const fields = err instanceof AppError ? (err.details?.fields as Record<string, string[]> | undefined) : undefined;
      if (instance !== undefined && fields?.instance) return openPage(reply, inv, req.params.token, { status: 400, identifier: instance, error: `${shape.kind === 'instance-oauth' ? shape.instance.label : 'Server'}: ${fields.instance.join('; ')}` });
      req.log.warn({ err, platform: inv.row.platform }, 'platform invite: connect could not start');
      return openPage(reply, inv, req.params.token, { status: 503, error: `${PLATFORM_LABELS[inv.row.platform]} cannot be connected on this server right now. Please tell the person who invited you.` });
    }
  });

  // The form post of each platform whose connect shape is an app password (Bluesky: .../connect/bluesky).
  for (const platform of PLATFORMS) {
    const shape = services.adapters.connectShape(platform);
    if (shape.kind !== 'app-password') continue;
    const label = PLATFORM_LABELS[platform];
    app.post(`/platform-invites/:token/connect/${platform}`, {
      config: { public: true },
      schema: {
        hide: true, params: TokenParams,
        body: Type.Object({ identifier: Type.String({ maxLength: 253 }), appPassword: Type.String({ maxLength: 100 }) }, { additionalProperties: true }),
      },
    }, async (req, reply) => {
      assertSameOrigin(req, services);
      const inv = await openInvite(req.params.token, reply);
      if (!inv) return reply;
      if (inv.row.platform !== platform) return reply.redirect(invites.inviteUrl(req.params.token), 303);
      const identifier = req.body.identifier.trim();
      if (!identifier || !req.body.appPassword.trim()) return openPage(reply, inv, req.params.token, { status: 400, identifier, error: shape.form.missing });
      try {
        await connectWithCredentials(services, invites.actingFor(inv.row), platform, { identifier, appPassword: req.body.appPassword, state: inv.row.profile_id }, invites.useWithin(inv.row.id));
      } catch (err) {
        if (err instanceof AppError && err.details?.reason === 'invite_unavailable') return reply.redirect(invites.inviteUrl(req.params.token), 303);
        const refused = err instanceof AppError && err.status === 400;
        const msg = refused ? shape.form.refused : `${label} could not be reached. Please try again in a moment.`;
        return openPage(reply, inv, req.params.token, { status: refused ? 400 : 502, identifier, error: msg });
      }
      return reply.redirect(`${invites.inviteUrl(req.params.token)}?connected=${platform}`, 303);
    });
  }

  // The token post of each platform whose connect shape is a bot token (Telegram: .../connect/telegram), then the choice page.
  for (const platform of PLATFORMS) {
    const shape = services.adapters.connectShape(platform);
    if (shape.kind !== 'bot-token') continue;
    const label = PLATFORM_LABELS[platform];
    app.post(`/platform-invites/:token/connect/${platform}`, {
      config: { public: true },
      schema: { hide: true, params: TokenParams, body: Type.Object({ botToken: Type.String({ maxLength: 200 }) }, { additionalProperties: true }) },
    }, async (req, reply) => {
      assertSameOrigin(req, services);
      const inv = await openInvite(req.params.token, reply);
      if (!inv) return reply;
      if (inv.row.platform !== platform) return reply.redirect(invites.inviteUrl(req.params.token), 303);
      const botToken = req.body.botToken.trim();
      if (!botToken) return openPage(reply, inv, req.params.token, { status: 400, error: shape.form.missing });
      let tempToken: string | undefined;
      try {
        const out = await services.choose.botToken(invites.actingFor(inv.row), platform, { profileId: inv.row.profile_id, botToken }, { inviteId: inv.row.id });
        tempToken = 'tempToken' in out ? out.tempToken as string : undefined;
      } catch (err) {
        const refused = err instanceof AppError && err.status === 400;
        const msg = refused ? shape.form.refused : `${label} could not be reached. Please try again in a moment.`;
        return openPage(reply, inv, req.params.token, { status: refused ? 400 : 502, error: msg });
      }
      return reply.redirect(`${invites.inviteUrl(req.params.token)}/select?tempToken=${encodeURIComponent(tempToken ?? '')}`, 303);
    });
  }

  /** The choices of a flow started from this invite, or null (not this invite's, used, expired). */
  async function choices(inv: InviteForPage, tempToken: string) {
    return (await listed(inv, tempToken))?.choices ?? null;
  }

  /** The choices and the step's note, or null. */
  async function listed(inv: InviteForPage, tempToken: string) {
    const auth = invites.actingFor(inv.row);
    return services.choose.list(auth, inv.row.platform, inv.row.profile_id, tempToken, { inviteId: inv.row.id }).catch(() => null);
  }

  const selectQuery = Type.Object({ tempToken: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: true });

  async function selectPage(reply: FastifyReply, inv: InviteForPage, token: string, tempToken: string, error?: string) {
    const found = await listed(inv, tempToken);
    const list = found?.choices;
    if (!list) return openPage(reply, inv, token, { status: 400, error: 'This connection attempt has expired. Please start again.' });
    const note = found?.note ? `<p class="muted">${esc(found.note)}</p>` : '';
    const step = chooseStep(inv.row.platform)!;
    const title = step.title;
    // Nothing yet: the step says what to do, and the same page lists again (a bot's chats appear once it is made administrator).
    const items = list.length === 0
      ? `<p>${esc(step.empty)}</p><form method="get" action="/v1/platform-invites/${encodeURIComponent(token)}/connect/select"><input type="hidden" name="tempToken" value="${esc(tempToken)}"><button class="btn" type="submit">Look again</button></form>`
      : `<form method="post" action="/v1/platform-invites/${encodeURIComponent(token)}/connect/select"><input type="hidden" name="tempToken" value="${esc(tempToken)}">
${list.map((c, i) => `<label class="choice"><input type="radio" name="choice" value="${esc(c.value)}"${i === 0 ? ' checked' : ''}> <span>${esc(c.label)}<br><span class="hint">${esc(c.hint)}</span></span></label>`).join('\n')}
<button class="btn" type="submit">Connect</button></form>`;
    return send(reply, error ? 400 : 200, title, `<h1>${esc(title)}</h1>${intro(inv)}${error ? `<div class="alert alert-error" role="alert">${esc(error)}</div>` : ''}${items}${note}`);
  }

  app.get('/platform-invites/:token/connect/select', { config: { public: true }, schema: { hide: true, params: TokenParams, querystring: selectQuery } }, async (req, reply) => {
    const inv = await openInvite(req.params.token, reply);
    if (!inv) return reply;
    if (!chooseStep(inv.row.platform)) return reply.redirect(invites.inviteUrl(req.params.token), 303);
    return selectPage(reply, inv, req.params.token, req.query.tempToken);
  });

  app.post('/platform-invites/:token/connect/select', {
    config: { public: true },
    schema: { hide: true, params: TokenParams, body: Type.Object({ tempToken: Type.String({ minLength: 1, maxLength: 200 }), choice: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: true }) },
  }, async (req, reply) => {
    assertSameOrigin(req, services);
    const inv = await openInvite(req.params.token, reply);
    if (!inv) return reply;
    const { tempToken, choice } = req.body;
    const list = await choices(inv, tempToken).catch(() => null);
    if (!list) return selectPage(reply, inv, req.params.token, tempToken);
    if (!list.some((c) => c.value === choice)) return selectPage(reply, inv, req.params.token, tempToken, 'Choose one of the listed options.');
    const auth = invites.actingFor(inv.row);
    const within = invites.useWithin(inv.row.id);
    try {
      await services.choose.choose(auth, inv.row.platform, { profileId: inv.row.profile_id, tempToken, value: choice }, within);
    } catch (err) {
      if (err instanceof AppError && err.details?.reason === 'invite_unavailable') return reply.redirect(invites.inviteUrl(req.params.token), 303);
      // The platform refused this choice for a reason the client can act on (a Discord channel where
      // the bot lacks a permission): say it on the same choice page, whose token still holds.
      if (err instanceof AppError && err.status === 403) return selectPage(reply, inv, req.params.token, tempToken, err.message);
      req.log.warn({ err }, 'platform invite: selection failed');
      return openPage(reply, inv, req.params.token, { status: 400, error: ERROR_TEXT.connection_failed });
    }
    return reply.redirect(`${invites.inviteUrl(req.params.token)}?connected=${inv.row.platform}`, 303);
  });
};
