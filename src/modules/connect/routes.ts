import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';
import { connectWithCredentials } from './credentials.ts';
import { OAUTH_PLATFORMS, type OAuthPlatform } from '../../config.ts';
import { AppError } from '../../core/errors.ts';
import { APP_PASSWORD_PLATFORMS, BOT_TOKEN_PLATFORMS, PLATFORM_LABELS, PLATFORMS, type PlatformId } from '../../shared/platforms.ts';
import { Id } from '../../route-kit/schemas.ts';
import { redirectWith } from './redirect.ts';
import type { StateRow } from './oauth-service.ts';
import { spentStatePage } from './callback-page.ts';
import { chooseRoutes } from './choose-routes.ts';

const OAuthPlatformParam = Type.Object({ platform: Type.Enum([...OAUTH_PLATFORMS, ...APP_PASSWORD_PLATFORMS, ...BOT_TOKEN_PLATFORMS]) });

/**
 * The 400 of the OAuth calls for a platform that connects otherwise (its connect shape is not
 * `oauth`), pointing at the call that connects it. `withDetails`: the error names the platform.
 */
function notOAuth(services: Pick<Services, 'adapters'>, platform: PlatformId, withDetails: boolean): AppError | null {
  const shape = services.adapters.connectShape(platform);
  if (shape.kind === 'oauth' || shape.kind === 'instance-oauth') return null;
  const label = PLATFORM_LABELS[platform];
  const how = shape.kind === 'app-password' ? `connects with an app password: POST /v1/connect/${platform}/credentials`
    : shape.kind === 'bot-token' ? `connects with a bot token: POST /v1/connect/${platform}/bot-token` : 'cannot be connected on this server yet';
  return new AppError('BAD_REQUEST', `${label} ${how}`, withDetails ? { platform } : undefined);
}

export const connectRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'adapters' | 'choose' | 'oauthConnect' | 'publicUrl' | 'accounts' | 'profiles'> }> = async (app, { services }) => {
  // The select calls of every platform whose connect shape has a choose step (select-page, select-organization).
  await app.register(chooseRoutes, { services });
  const chooseSteps = PLATFORMS.flatMap((p) => {
    const shape = services.adapters.connectShape(p);
    return shape.kind === 'oauth' && shape.choose ? [{ platform: p, step: shape.choose }] : [];
  });
  // One credentials call per platform whose connect shape is an app password (Bluesky).
  for (const platform of PLATFORMS) {
    const shape = services.adapters.connectShape(platform);
    if (shape.kind !== 'app-password') continue;
    app.post(`/connect/${platform}/credentials`, {
      config: { permission: 'accounts:write' },
      schema: {
        tags: ['Connect'], summary: shape.api.summary,
        description: `${shape.api.description} ` +
          '`state` is `{userId}-{profileId}` as returned by the connect flow, or just the profile id.',
        body: Type.Object({
          identifier: Type.String({ minLength: 1, maxLength: 253, description: shape.api.identifier }),
          appPassword: Type.String({ minLength: 1, maxLength: 100, description: shape.api.secret }),
          state: Type.String({ minLength: 1, maxLength: 200 }),
          redirectUri: Type.Optional(Type.String({ maxLength: 2000 })),
          redirect_url: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: {
          200: Type.Object({ message: Type.String(), account: AccountSchema, redirect_url: Type.Optional(Type.String()) }),
          ...errors(403),
        },
      },
    }, async (req) => connectWithCredentials(services, req.auth, platform, req.body));
  }

  // One bot-token call per platform whose connect shape is a bot token (Telegram): the token, then the choice (select-{noun}).
  for (const platform of PLATFORMS) {
    const shape = services.adapters.connectShape(platform);
    if (shape.kind !== 'bot-token') continue;
    const step = shape.choose;
    app.post(`/connect/${platform}/bot-token`, {
      config: { permission: 'accounts:write' },
      schema: {
        tags: ['Connect'], summary: shape.api.summary, description: shape.api.description,
        body: Type.Object({
          profileId: Id(),
          botToken: Type.String({ minLength: 1, maxLength: 200, description: shape.api.token }),
          [shape.directField]: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: shape.api.direct })),
          redirect_url: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            account: Type.Optional(Type.Intersect([AccountSchema, Type.Object({ accountId: Type.String() })])),
            redirect_url: Type.Optional(Type.String()),
            tempToken: Type.Optional(Type.String({ description: `The selection token (1 hour, single use): finish with POST /v1/connect/${platform}/select-${step.noun}` })),
            expiresAt: Type.Optional(Type.String({ description: 'When the tempToken (and the code) expires (ISO 8601)' })),
            expiresIn: Type.Optional(Type.Integer({ description: 'Seconds until then' })),
            [step.answerKey]: Type.Optional(Type.Array(step.wire.listed, { description: step.wire.listedDescription })),
            ...step.wire.beginFields,
          }),
          ...errors(403),
        },
      },
    }, async (req) => services.choose.botToken(req.auth, platform, req.body as { profileId: string; botToken: string; redirect_url?: string } & Record<string, unknown>) as Promise<never>);
  }
  // The platforms connected through an instance the user names (connect shape instance-oauth): the `instance` parameter.
  const instancePlatforms = PLATFORMS.flatMap((p) => {
    const shape = services.adapters.connectShape(p);
    return shape.kind === 'instance-oauth' ? [{ platform: p, shape }] : [];
  });

  app.get('/connect/:platform', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'Start connecting an account (OAuth 2.0)',
      description: 'Answers `{ authUrl, state }`; send the user to authUrl. After consent the platform returns to Herald, which stores the account ' +
        'and redirects to the dashboard, or to redirect_url with connected, profileId and username (or error and platform). ' +
        'redirect_url must be on this server\'s origin or an origin registered in its HERALD_CONNECT_REDIRECT_ORIGINS (400 otherwise). ' +
        'Each state redirects once: a callback replayed with a used or expired state answers an error page.',
      params: OAuthPlatformParam,
      querystring: Type.Object({
        profileId: Id(), redirect_url: Type.Optional(Type.String({ maxLength: 2000 })),
        instance: Type.Optional(Type.String({
          maxLength: 300,
          description: instancePlatforms.map(({ platform, shape }) => `${PLATFORM_LABELS[platform]}: ${shape.instanceDescription}`).join(' ') +
            ' Herald registers its app on the instance on first use; a private or reserved address is refused. Ignored by the other platforms.',
        })),
      }),
      response: { 200: Type.Object({ authUrl: Type.String(), state: Type.String() }), ...errors(403) },
    },
  }, async (req, reply) => {
    const refused = notOAuth(services, req.params.platform, true);
    if (refused) throw refused;
    const out = await services.oauthConnect.start(req.auth, req.params.platform as OAuthPlatform, req.query.profileId, req.query.redirect_url,
      { instance: req.query.instance });
    const accept = req.headers.accept ?? '';
    if (accept.includes('text/html') && !accept.includes('application/json')) return reply.redirect(out.authUrl, 302);
    return out;
  });

  app.post('/connect/:platform', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'Complete an OAuth connection with the code (server-side flows)',
      params: OAuthPlatformParam,
      body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 4096 }), state: Type.String({ minLength: 1, maxLength: 500 }), profileId: Id() }),
      description: 'Answers `{ message, account }`. ' + chooseSteps.map(({ platform, step }) =>
        `${PLATFORM_LABELS[platform]} answers \`{ message, tempToken, ${step.answerKey} }\` when there is a choice to make: finish with POST /v1/connect/${platform}/select-${step.noun}.`).join(' '),
      response: {
        200: Type.Object({
          message: Type.String(),
          account: Type.Optional(AccountSchema),
          tempToken: Type.Optional(Type.String({ description: 'The selection token of a choice to make (1 hour, single use)' })),
          ...Object.fromEntries(chooseSteps.map(({ step }) => [step.answerKey, Type.Optional(Type.Array(step.wire.listed, { description: step.wire.listedDescription }))])),
        }),
        ...errors(403),
      },
    },
  }, async (req) => {
    const refused = notOAuth(services, req.params.platform, false);
    if (refused) throw refused;
    const r = await services.oauthConnect.complete(req.params.platform as OAuthPlatform, req.body.state, req.body.code, { auth: req.auth, profileId: req.body.profileId.toLowerCase() });
    if (r.selection) {
      // The choose step's answer: `{ message, tempToken, pages }` (Facebook), `{ message, tempToken, organizations }` (LinkedIn).
      const { step, tempToken, list } = r.selection;
      return { message: step.answerMessage, tempToken, [step.answerKey]: list };
    }
    return { message: `${req.params.platform} account connected successfully`, account: r.account };
  });

  app.get('/connect/:platform/callback', {
    config: { public: true },
    schema: {
      tags: ['Connect'], summary: 'OAuth redirect target (the platform sends the browser here)',
      params: OAuthPlatformParam,
      querystring: Type.Object({
        code: Type.Optional(Type.String({ maxLength: 4096 })), state: Type.Optional(Type.String({ maxLength: 500 })),
        error: Type.Optional(Type.String({ maxLength: 200 })), error_description: Type.Optional(Type.String({ maxLength: 1000 })),
      }, { additionalProperties: true }),
    },
  }, async (req, reply) => {
    const platform = req.params.platform as OAuthPlatform;
    const oauth = services.oauthConnect;
    const dashboard = `${services.publicUrl}/dashboard/accounts`;
    /** Back to the flow's allowed redirect_url (or the dashboard) with `params`. */
    const back = (target: string | null, params: Record<string, string>) => reply.redirect(redirectWith(target ?? dashboard, params) ?? dashboard, 302);
    const denied = req.query.error === 'access_denied' ? 'access_denied' : 'connection_failed';
    // No state or a forged one: only the dashboard, never a client's URL.
    if (!req.query.state) return back(null, { error: denied, platform });
    let row: StateRow | null;
    try {
      row = await oauth.take(platform, req.query.state);
    } catch (err) {
      req.log.warn({ err, platform }, 'OAuth callback with a state that is not usable');
      return back(null, { error: 'connection_failed', platform });
    }
    // A used or expired state took its one redirect already: an error page, no redirect (decision 0046).
    if (!row) return spentStatePage(reply, dashboard);
    const target = oauth.redirectTarget(row);
    if (req.query.error || !req.query.code) return back(target, { error: denied, platform });
    try {
      const r = await oauth.finish(row, req.query.code);
      if (r.selection && r.inviteId && r.redirectUrl) {
        // Started from a platform invite: the invite page's own picker finishes it (no login there).
        return back(`${r.redirectUrl}/select`, { tempToken: r.selection.tempToken });
      }
      if (r.selection) {
        // A choose step: the dashboard's chooser (select-page, select-organization) finishes the connection.
        const select = `${services.publicUrl}/dashboard/connect/${platform}/select-${r.selection.step.noun}`;
        return back(select, { tempToken: r.selection.tempToken, profileId: r.profileId });
      }
      return back(r.redirectUrl, { connected: platform, profileId: r.profileId, username: r.account!.username, accountId: r.account!._id });
    } catch (err) {
      req.log.warn({ err, platform }, 'OAuth callback failed');
      const inviteGone = err instanceof AppError && err.details?.reason === 'invite_unavailable';
      return back(target, { error: inviteGone ? 'invite_unavailable' : 'connection_failed', platform });
    }
  });
};
