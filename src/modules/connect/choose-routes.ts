/**
 * The Late-compatible select calls of every platform whose connect shape has a choose step
 * (docs/decisions/0051-platform-connect-contract.md): `GET /v1/connect/{platform}/select-{noun}`
 * lists the choices of a tempToken, `POST` the same path finishes the connection with the chosen
 * value (`/v1/connect/facebook/select-page`, `/v1/connect/linkedin/select-organization`), and the
 * choice after a bot token (`/v1/connect/telegram/select-chat`). The body
 * and the listed choice are the step's {@link ChooseWire}; the generic choose service runs it.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { PLATFORM_LABELS, PLATFORMS } from '../../shared/platforms.ts';
import { AccountSchema } from '../accounts/schemas.ts';

const TempToken = Type.String({ minLength: 1, maxLength: 200 });

export const chooseRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'adapters' | 'choose'> }> = async (app, { services }) => {
  const { choose } = services;
  for (const platform of PLATFORMS) {
    const shape = services.adapters.connectShape(platform);
    const step = shape.kind === 'bot-token' ? shape.choose : shape.kind === 'oauth' ? shape.choose : undefined;
    if (!step) continue;
    const { wire, noun } = step;
    const path = `/connect/${platform}/select-${noun}`;

    // The same choice in one shape for every platform (the dashboard's chooser and any client that
    // names no platform): the choices as `{ value, label, hint }`, and the chosen `value`.
    app.get(`/connect/${platform}/choices`, {
      config: { permission: 'accounts:write' },
      schema: {
        tags: ['Connect'], summary: `The choices of a ${PLATFORM_LABELS[platform]} connection, in the shape every platform shares`,
        description: `What GET ${path} lists, as \`{ value, label, hint }\` with the step's title; choose with POST /v1/connect/${platform}/choose. Herald extension.`,
        querystring: Type.Object({ profileId: Id(), tempToken: TempToken }),
        response: {
          200: Type.Object({
            title: Type.String(), empty: Type.String({ description: 'What to say when there is nothing to choose' }), noun: Type.String(),
            note: Type.Optional(Type.String()),
            choices: Type.Array(Type.Object({ value: Type.String(), label: Type.String(), hint: Type.String() })),
          }),
          ...errors(...wire.list.errors),
        },
      },
    }, async (req) => {
      const { choices, note } = await choose.list(req.auth, platform, req.query.profileId, req.query.tempToken);
      return { title: step.title, empty: step.empty, noun, ...(note ? { note } : {}), choices: choices.map(({ value, label, hint }) => ({ value, label, hint })) };
    });

    app.post(`/connect/${platform}/choose`, {
      config: { permission: 'accounts:write' },
      schema: {
        tags: ['Connect'], summary: `Finish a ${PLATFORM_LABELS[platform]} connection with a value from its choices`,
        description: `The same as POST ${path} with the value GET /v1/connect/${platform}/choices listed. Herald extension.`,
        body: Type.Object({ profileId: Id(), tempToken: TempToken, value: Type.String({ minLength: 1, maxLength: 200 }), redirect_url: Type.Optional(Type.String({ maxLength: 2000 })) }),
        response: {
          200: Type.Object({ message: Type.String(), redirect_url: Type.Optional(Type.String()), account: Type.Intersect([AccountSchema, Type.Object({ accountId: Type.String() })]) }),
          ...errors(...wire.post.errors),
        },
      },
    }, async (req) => choose.choose(req.auth, platform, { profileId: req.body.profileId, tempToken: req.body.tempToken, value: req.body.value, redirectUrl: req.body.redirect_url }));

    app.get(path, {
      config: { permission: 'accounts:write' },
      schema: {
        tags: ['Connect'], summary: wire.list.summary, description: wire.list.description,
        querystring: Type.Object({ profileId: Id(), tempToken: TempToken }),
        response: { 200: Type.Object({ [step.answerKey]: Type.Array(wire.listed) }), ...errors(...wire.list.errors) },
      },
    }, async (req) => (await choose.listed(req.auth, platform, req.query.profileId, req.query.tempToken)) as Record<string, Array<Record<string, unknown>>>);

    app.post(path, {
      config: { permission: 'accounts:write' },
      schema: {
        tags: ['Connect'], summary: wire.post.summary, description: wire.post.description,
        body: Type.Object({ profileId: Id(), tempToken: TempToken, ...wire.body, redirect_url: Type.Optional(Type.String({ maxLength: 2000 })) }),
        response: {
          200: Type.Object({ message: Type.String(), redirect_url: Type.Optional(Type.String()), account: Type.Intersect([AccountSchema, Type.Object({ accountId: Type.String() })]) }),
          ...errors(...wire.post.errors),
        },
      },
    }, async (req) => {
      const body = req.body as Record<string, unknown> & { profileId: string; tempToken: string; redirect_url?: string };
      return choose.choose(req.auth, platform, {
        profileId: body.profileId, tempToken: body.tempToken, value: () => wire.value(body), redirectUrl: body.redirect_url, extra: wire.extra(body),
      });
    });
  }
};
