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

const ProfileQuery = Type.Object({ profileId: Id('Profile whose queue this is') });

export const queueRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'queue'> }> = async (app, { services }) => {
  app.get('/queue/slots', {
    config: { permission: 'queue:read' },
    schema: {
      tags: ['Queue'], summary: 'Get a profile\'s queue schedule and its next slots', querystring: ProfileQuery,
      response: { 200: Type.Object({ exists: Type.Boolean(), schedule: Type.Union([Schedule, Type.Null()]), nextSlots: Type.Array(Type.String()) }), ...errors() },
    },
  }, async (req) => services.queue.get(req.auth, req.query.profileId));

  app.put('/queue/slots', {
    config: { permission: 'queue:write' },
    schema: {
      tags: ['Queue'], summary: 'Create or replace a profile\'s queue schedule',
      description: 'With reshuffleExisting=true, queued posts keep their order and move to the new slots; otherwise they keep their times.',
      body: Type.Object({
        profileId: Id(),
        timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' }),
        slots: Type.Array(Slot, { maxItems: 7 * 48 }),
        active: Type.Optional(Type.Boolean()),
        reshuffleExisting: Type.Optional(Type.Boolean({ default: false })),
      }),
      response: { 200: Type.Object({ success: Type.Boolean(), schedule: Schedule, nextSlots: Type.Array(Type.String()), reshuffledCount: Type.Integer() }), ...errors() },
    },
  }, async (req) => services.queue.put(req.auth, req.body));

  app.delete('/queue/slots', {
    config: { permission: 'queue:write' },
    schema: {
      tags: ['Queue'], summary: 'Delete a profile\'s queue schedule (queued posts keep their times)', querystring: ProfileQuery,
      response: { 200: Type.Object({ success: Type.Boolean(), deleted: Type.Boolean(), deletedCount: Type.Integer(), message: Type.String() }), ...errors() },
    },
  }, async (req) => services.queue.remove(req.auth, req.query.profileId));

  app.get('/queue/preview', {
    config: { permission: 'queue:read' },
    schema: {
      tags: ['Queue'], summary: 'Preview the next slots (existing posts are not considered)',
      querystring: Type.Object({ profileId: Id(), count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
      response: { 200: Type.Object({ profileId: Type.String(), count: Type.Integer(), queueId: Type.String(), queueName: Type.String(), timezone: Type.String(), slots: Type.Array(Type.String()) }), ...errors() },
    },
  }, async (req) => services.queue.preview(req.auth, req.query.profileId, req.query.count ?? 20));

  app.post('/queue/arrange', {
    config: { permission: 'queue:write' },
    schema: {
      tags: ['Queue'], summary: 'Move queued posts to other slots: reorder, swap, or fill a free slot (Herald extension)',
      description: 'Each move puts a post waiting in the profile\'s queue (scheduled, not started) at a future slot of the queue. The moves happen together, so two posts can trade slots: '
        + '`{ moves: [{ postId: A, slot: <B\'s time> }, { postId: B, slot: <A\'s time> }] }`. A slot held by a post that does not move is refused (400 naming `moves.<i>.slot`). '
        + 'The posts\' pending targets take the new time.',
      body: Type.Object({
        profileId: Id(),
        moves: Type.Array(Type.Object({
          postId: Id('A post queued from this profile'),
          slot: Type.String({ format: 'date-time', description: 'A slot instant (from GET /v1/queue/preview)' }),
        }, { additionalProperties: false }), { minItems: 1, maxItems: 100 }),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ success: Type.Boolean(), moved: Type.Array(Type.Object({ _id: Type.String(), scheduledFor: Type.String({ format: 'date-time' }) })) }), ...errors() },
    },
  }, async (req) => services.queue.arrange(req.auth, req.body));

  app.get('/queue/next-slot', {
    config: { permission: 'queue:read' },
    schema: {
      tags: ['Queue'], summary: 'The next free slot (occupied times are skipped)', querystring: ProfileQuery,
      response: { 200: Type.Object({ profileId: Type.String(), nextSlot: Type.Union([Type.String(), Type.Null()]), timezone: Type.String(), queueId: Type.String(), queueName: Type.String() }), ...errors() },
    },
  }, async (req) => services.queue.nextSlot(req.auth, req.query.profileId));
};
