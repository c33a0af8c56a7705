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
import { PLATFORMS } from '../../shared/platforms.ts';
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
