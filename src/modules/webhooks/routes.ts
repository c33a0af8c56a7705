import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { assertAllProfiles } from '../auth/context.ts';
import {
  CreateWebhookBody, DeleteWebhookQuery, LogsQuery, LogsResponse, RedeliverBody, SuccessMessage, TestWebhookBody, UpdateWebhookBody, WebhookView,
} from './schemas.ts';

const WebhookResponse = Type.Object({ success: Type.Boolean(), webhook: WebhookView });
const SIGNING = 'Deliveries are POSTs signed with HMAC-SHA256 over `<X-Herald-Timestamp>.<body>` (header X-Herald-Signature: sha256=<hex>); see the Webhooks guide.';

export const webhooksRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'webhooks'> }> = async (app, { services }) => {
  const webhooks = services.webhooks;
  // Webhooks are the owner's: their events, logs and secrets span every profile, so a team member
  // limited to some profiles gets 403 on every route here (docs/decisions/0043-webhooks-and-scoped-members.md).
  // Runs after the /v1 hooks (authentication, rate limit, permission), before validation.
  app.addHook('onRequest', async (req) => {
    if (req.auth) assertAllProfiles(req.auth, 'Webhooks');
  });

  app.get('/webhooks/settings', {
    config: { permission: 'webhooks:read' },
    schema: { tags: ['Webhooks'], summary: 'List webhooks', description: SIGNING, response: { 200: Type.Object({ webhooks: Type.Array(WebhookView) }), ...errors(403) } },
  }, async (req) => webhooks.list(req.auth));

  app.post('/webhooks/settings', {
    config: { permission: 'webhooks:write' },
    schema: {
      tags: ['Webhooks'], summary: 'Create a webhook',
      description: `Several webhooks per user (up to 50). The URL must be public (no loopback, private or link-local address). ${SIGNING}`,
      body: CreateWebhookBody, response: { 200: WebhookResponse, ...errors(403, 409) },
    },
  }, async (req) => webhooks.create(req.auth, req.body));

  app.put('/webhooks/settings', {
    config: { permission: 'webhooks:write' },
    schema: { tags: ['Webhooks'], summary: 'Update a webhook', description: 'Fields left out stay as they are.', body: UpdateWebhookBody, response: { 200: WebhookResponse, ...errors(403) } },
  }, async (req) => webhooks.update(req.auth, req.body));

  app.delete('/webhooks/settings', {
    config: { permission: 'webhooks:write' },
    schema: { tags: ['Webhooks'], summary: 'Delete a webhook', querystring: DeleteWebhookQuery, response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(403) } },
  }, async (req) => webhooks.remove(req.auth, req.query.webhookId ?? req.query.id));

  app.post('/webhooks/test', {
    config: { permission: 'webhooks:write' },
    schema: {
      tags: ['Webhooks'], summary: 'Send a test event', description: 'Sends a `webhook.test` event once, now, and reports the answer (logged like any delivery).',
      body: TestWebhookBody,
      response: { 200: Type.Object({ success: Type.Boolean(), message: Type.String(), eventId: Type.String(), statusCode: Type.Union([Type.Integer(), Type.Null()]) }), ...errors(403) },
    },
  }, async (req) => webhooks.test(req.auth, req.body.webhookId));

  app.get('/webhooks/logs', {
    config: { permission: 'webhooks:read' },
    schema: { tags: ['Webhooks'], summary: 'Delivery logs (kept 30 days)', description: 'One entry per attempt, newest first.', querystring: LogsQuery, response: { 200: LogsResponse, ...errors(403) } },
  }, async (req) => webhooks.logs(req.auth, req.query));

  app.post('/webhooks/logs/redeliver', {
    config: { permission: 'webhooks:write' },
    schema: {
      tags: ['Webhooks'], summary: 'Redeliver an event', description: 'Queues the event again for the webhook, with the same event id and payload and a fresh retry budget.',
      body: RedeliverBody, response: { 200: SuccessMessage, ...errors(403) },
    },
  }, async (req) => webhooks.redeliver(req.auth, req.body));
};
