import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SLOT_TIME_PATTERN } from '../../core/queue-slots.ts';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';

const Slot = Type.Object({
  dayOfWeek: Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday .. 6 = Saturday' }),
  time: Type.String({ pattern: SLOT_TIME_PATTERN, description: '24-hour HH:mm in the queue time zone' }),
}, { additionalProperties: false });

const Schedule = Type.Object({
  _id: Type.String(),
  profileId: Type.String(),
  name: Type.String(),
  timezone: Type.String(),
  slots: Type.Array(Slot),
  active: Type.Boolean(),
  isDefault: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const QueueId = Id('A queue of the profile (`_id` of a queue from GET /v1/queue/slots?all=true); omitted: the profile\'s default queue');
const ProfileQuery = Type.Object({ profileId: Id('Profile whose queue this is'), queueId: Type.Optional(QueueId) });
const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Queue name (e.g. "Evening Posts"), unique within the profile' });
const Timezone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' });
const Slots = Type.Array(Slot, { maxItems: 7 * 48 });
const NextSlots = Type.Array(Type.String({ format: 'date-time' }));

export const queueRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'queue'> }> = async (app, { services }) => {
  app.get('/queue/slots', {
    config: { permission: 'queue:read' },
    schema: {
      tags: ['Queue'], summary: 'Get a profile\'s queue (the default, or queueId) and its next slots, or with all=true every queue of the profile',
      querystring: Type.Object({
        profileId: Id('Profile whose queues these are'),
        queueId: Type.Optional(QueueId),
        all: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: '`true`: list every queue of the profile as `{ queues, count }`' })),
      }),
      response: {
        200: Type.Union([
          Type.Object({ exists: Type.Boolean(), schedule: Type.Union([Schedule, Type.Null()]), nextSlots: NextSlots }),
          Type.Object({ queues: Type.Array(Schedule), count: Type.Integer() }),
        ]),
        ...errors(),
      },
    },
  }, async (req) => services.queue.get(req.auth, { ...req.query, all: req.query.all === 'true' }));

  app.post('/queue/slots', {
    config: { permission: 'queue:write' },
    schema: {
      tags: ['Queue'], summary: 'Create a named queue for a profile',
      description: 'A profile can have several queues (up to 20), each with its own weekly slots; the first one is the default, used when a call gives no queueId.',
      body: Type.Object({ profileId: Id(), name: Name, timezone: Timezone, slots: Slots, active: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      response: { 201: Type.Object({ success: Type.Boolean(), schedule: Schedule, nextSlots: NextSlots }), ...errors() },
    },
  }, async (req, reply) => reply.code(201).send(await services.queue.create(req.auth, req.body)));

  app.put('/queue/slots', {
    config: { permission: 'queue:write' },
    schema: {
      tags: ['Queue'], summary: 'Update a queue (queueId), or create or replace the profile\'s default queue',
      description: 'Without queueId, the default queue is updated (created when the profile has none: isNewQueue). setAsDefault: true makes the queue the default. '
        + 'With reshuffleExisting=true, the queue\'s queued posts keep their order and move to the new slots; otherwise they keep their times.',
      body: Type.Object({
        profileId: Id(),
        queueId: Type.Optional(QueueId),
        name: Type.Optional(Name),
        timezone: Timezone,
        slots: Slots,
        active: Type.Optional(Type.Boolean()),
        setAsDefault: Type.Optional(Type.Boolean({ description: 'Make this queue the profile\'s default' })),
        reshuffleExisting: Type.Optional(Type.Boolean({ default: false })),
      }),
      response: {
        200: Type.Object({ success: Type.Boolean(), schedule: Schedule, nextSlots: NextSlots, reshuffledCount: Type.Integer(), isNewQueue: Type.Boolean() }),
        ...errors(),
      },
    },
  }, async (req) => services.queue.put(req.auth, req.body));

  app.delete('/queue/slots', {
    config: { permission: 'queue:write' },
    schema: {
      tags: ['Queue'], summary: 'Delete a queue (queueId), or every queue of the profile; queued posts keep their times',
      description: 'The default queue can be deleted by id only as the profile\'s last queue: make another queue the default first.',
      querystring: ProfileQuery,
      response: { 200: Type.Object({ success: Type.Boolean(), deleted: Type.Boolean(), deletedCount: Type.Integer(), message: Type.String() }), ...errors() },
    },
  }, async (req) => services.queue.remove(req.auth, req.query));

  app.get('/queue/preview', {
    config: { permission: 'queue:read' },
    schema: {
      tags: ['Queue'], summary: 'Preview the next slots of a queue (existing posts are not considered)',
      querystring: Type.Object({ profileId: Id(), queueId: Type.Optional(QueueId), count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
      response: { 200: Type.Object({ profileId: Type.String(), count: Type.Integer(), queueId: Type.String(), queueName: Type.String(), timezone: Type.String(), slots: NextSlots }), ...errors() },
    },
  }, async (req) => services.queue.preview(req.auth, { ...req.query, count: req.query.count ?? 20 }));

  app.post('/queue/arrange', {
    config: { permission: 'queue:write' },
    schema: {
      tags: ['Queue'], summary: 'Move queued posts to other slots: reorder, swap, or fill a free slot (Herald extension)',
      description: 'Each move puts a post waiting in the queue (the default queue, or queueId; scheduled, not started) at a future slot of that queue. The moves happen together, so two posts can trade slots: '
        + '`{ moves: [{ postId: A, slot: <B\'s time> }, { postId: B, slot: <A\'s time> }] }`. A slot held by a post that does not move is refused (400 naming `moves.<i>.slot`). '
        + 'The posts\' pending targets take the new time.',
      body: Type.Object({
        profileId: Id(),
        queueId: Type.Optional(QueueId),
        moves: Type.Array(Type.Object({
          postId: Id('A post queued in this queue'),
          slot: Type.String({ format: 'date-time', description: 'A slot instant (from GET /v1/queue/preview)' }),
        }, { additionalProperties: false }), { minItems: 1, maxItems: 100 }),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ success: Type.Boolean(), moved: Type.Array(Type.Object({ _id: Type.String(), scheduledFor: Type.String({ format: 'date-time' }) })) }), ...errors() },
    },
  }, async (req) => services.queue.arrange(req.auth, req.body));

  app.get('/queue/next-slot', {
    config: { permission: 'queue:read' },
    schema: {
      tags: ['Queue'], summary: 'The next free slot of a queue (occupied times are skipped)', querystring: ProfileQuery,
      response: { 200: Type.Object({ profileId: Type.String(), nextSlot: Type.Union([Type.String(), Type.Null()]), timezone: Type.String(), queueId: Type.String(), queueName: Type.String() }), ...errors() },
    },
  }, async (req) => services.queue.nextSlot(req.auth, req.query));
};
