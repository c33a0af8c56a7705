/**
 * POST /docs-ai/answer {question}: a grounded answer from the configured OpenAI-compatible
 * endpoint (see service.ts). Public like the docs page, limited to 20 questions a minute per
 * client address (counters in PostgreSQL, shared by every API process).
 */
import { sendRateLimitHeaders } from '../../route-kit/rate-limit-headers.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import type { OpenApiDoc } from '../../shared/docs/content.ts';
import { countHit } from '../../storage/rate-limit-counters.ts';

export const DOCS_AI_PER_MINUTE = 20;

export const docsAiRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'docsAi' | 'db' | 'clock'>; openapi: () => unknown }> = async (app, { services, openapi }) => {
  const { docsAi } = services;
  // The corpus includes the API reference: the document this app serves.
  docsAi.useOpenApi(() => openapi() as OpenApiDoc);

  app.post('/docs-ai/answer', {
    schema: {
      hide: true,
      body: Type.Object({ question: Type.String({ minLength: 1, maxLength: 500 }) }),
      response: {
        200: Type.Object({ answer: Type.String(), model: Type.String(), sources: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), url: Type.String() })) }),
        ...errors(429, 503),
      },
    },
  }, async (request, reply) => {
    const now = services.clock().getTime();
    const { count, windowStart } = await countHit(services.db, `docs-ai:${request.ip}`, 60_000, now);
    sendRateLimitHeaders(reply, {
      policy: 'docs-ai', limit: DOCS_AI_PER_MINUTE, windowSeconds: 60, remaining: DOCS_AI_PER_MINUTE - count,
      resetAt: Math.ceil((windowStart.getTime() + 60_000) / 1000), nowMs: now,
    }, count > DOCS_AI_PER_MINUTE);
    if (count > DOCS_AI_PER_MINUTE) {
      throw new AppError('RATE_LIMITED', `At most ${DOCS_AI_PER_MINUTE} questions a minute; try again shortly`);
    }
    return docsAi.answer(request.body.question);
  });
};
