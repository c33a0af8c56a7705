import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { JobView, ListQuery, ListResponse, MonthlyStats, ProcessBody, ProcessResponse } from './schemas.ts';

/** The AI Video Clipping routes (media permissions: clips are media). */
export const videoClipsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'videoClips'> }> = async (app, { services }) => {
  app.post('/video-clips/process', {
    config: { permission: 'media:write' },
    schema: {
      tags: ['Video clips'], summary: 'Submit a video for AI clipping',
      description: 'Answers at once; the clips are rendered in the background (poll GET /v1/video-clips/status/{jobId}). ' +
        '403 when the month\'s allowance is used up.',
      body: ProcessBody, response: { 200: ProcessResponse, ...errors(403) },
    },
  }, async (req) => services.videoClips.process(req.auth, req.body));

  app.get('/video-clips/jobs', {
    config: { permission: 'media:read' },
    schema: { tags: ['Video clips'], summary: 'List clip jobs, newest first', querystring: ListQuery, response: { 200: ListResponse, ...errors() } },
  }, async (req) => services.videoClips.list(req.auth, req.query));

  app.get('/video-clips/status/:jobId', {
    config: { permission: 'media:read' },
    schema: {
      tags: ['Video clips'], summary: 'Status, progress and clips of a job',
      params: Type.Object({ jobId: Id('Job id') }), response: { 200: JobView, ...errors() },
    },
  }, async (req) => services.videoClips.status(req.auth, req.params.jobId));

  app.get('/video-clips/monthly-stats', {
    config: { permission: 'media:read' },
    schema: { tags: ['Video clips'], summary: 'Videos used and left this month', response: { 200: MonthlyStats, ...errors() } },
  }, async (req) => services.videoClips.monthlyStats(req.auth));
};
