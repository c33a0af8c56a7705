/**
 * Request and response schemas of the webhook routes (TypeBox), in the official client's field
 * names (Webhook, WebhookLog, the settings/test/logs/redeliver bodies of @getlatedev/node).
 */
import { Type, type Static } from 'typebox';
import { Id, NullableTimestamp, Timestamp } from '../../route-kit/schemas.ts';
// The event list is shared with the dashboard's Webhooks page (src/shared/webhook-events.ts).
import { WEBHOOK_EVENTS } from '../../shared/webhook-events.ts';

const EventName = Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e)), { description: 'Event name' });
const Events = Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, description: 'Events to subscribe to (at least one)' });
const Name = Type.String({ minLength: 1, maxLength: 50, description: 'Webhook name (1-50 characters)' });
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'Endpoint URL (http or https; public addresses only)' });
const Secret = Type.String({ minLength: 16, maxLength: 256, description: 'HMAC-SHA256 key (generated when omitted)' });
// Names not matching the key pattern are refused by the service (checkHeaders), which names the field.
const CustomHeaders = Type.Record(Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$" }), Type.String({ maxLength: 1024, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }), {
  description: 'Extra request headers: names are RFC 7230 tokens (letters, digits and !#$%&\'*+-.^_`|~, at most 64), values have no control characters (no CR/LF); ' +
    'the X-Herald-* headers cannot be replaced',
});

export const WebhookView = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  secret: Type.String({ description: 'HMAC-SHA256 key: verify X-Herald-Signature with it' }),
  events: Type.Array(Type.String()),
  isActive: Type.Boolean(),
  lastFiredAt: NullableTimestamp('Last successful delivery'),
  failureCount: Type.Integer({ description: 'Deliveries that ended failed since the last success' }),
  failingSince: NullableTimestamp('First failure since the last success'),
  disabledAt: NullableTimestamp('When Herald disabled the webhook after failing for days'),
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  customHeaders: Type.Record(Type.String(), Type.String()),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export type WebhookViewT = Static<typeof WebhookView>;

export const CreateWebhookBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Webhook name (1-50 characters; default: the URL\'s host)' })),
  url: Url,
  secret: Type.Optional(Secret),
  events: Events,
  isActive: Type.Optional(Type.Boolean({ description: 'Defaults to true' })),
  customHeaders: Type.Optional(CustomHeaders),
});
export type CreateWebhookBodyT = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object({
  webhookId: Type.Optional(Id('Webhook to update')),
  _id: Type.Optional(Id('Alias of webhookId')),
  name: Type.Optional(Name),
  url: Type.Optional(Url),
  secret: Type.Optional(Secret),
  events: Type.Optional(Events),
  isActive: Type.Optional(Type.Boolean({ description: 'Turning a disabled webhook on clears its failure state' })),
  customHeaders: Type.Optional(CustomHeaders),
});
export type UpdateWebhookBodyT = Static<typeof UpdateWebhookBody>;

export const DeleteWebhookQuery = Type.Object({
  webhookId: Type.Optional(Id('Webhook to delete')),
  id: Type.Optional(Id('Alias of webhookId')),
});

export const TestWebhookBody = Type.Object({ webhookId: Id('Webhook to test') });

export const SuccessMessage = Type.Object({ success: Type.Boolean(), message: Type.String() });

export const LogsQuery = Type.Object({
  webhookId: Type.Optional(Id('Only this webhook')),
  event: Type.Optional(EventName),
  eventId: Type.Optional(Type.String({ format: 'uuid', description: 'Only this event' })),
  status: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failed')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});
export type LogsQueryT = Static<typeof LogsQuery>;

export const WebhookLogView = Type.Object({
  _id: Type.String(),
  userId: Type.String({ description: 'The tenant (root user) the webhook belongs to' }),
  webhookId: Type.String(),
  webhookName: Type.String(),
  eventId: Type.String({ description: 'Stable event id (payload `id`, X-Herald-Event-Id), shared by every attempt' }),
  event: Type.String(),
  url: Type.String(),
  status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  requestPayload: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  responseBody: Type.Union([Type.String(), Type.Null()], { description: 'First 10 KB of the answer' }),
  errorMessage: Type.Union([Type.String(), Type.Null()]),
  attemptNumber: Type.Integer(),
  responseTime: Type.Integer({ description: 'ms' }),
  createdAt: Timestamp(),
});

export const LogsResponse = Type.Object({
  logs: Type.Array(WebhookLogView),
  pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), pages: Type.Integer(), hasMore: Type.Boolean() }),
});

export const RedeliverBody = Type.Object({
  webhookId: Id('Webhook that delivered the event'),
  eventId: Type.String({ format: 'uuid', description: 'Stable event id to send again' }),
});
