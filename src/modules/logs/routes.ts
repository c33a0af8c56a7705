import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { ListLogsQuery, LogEntry, LogListResponse } from './schemas.ts';

const LOG_DESCRIPTION = 'Each entry is one step of publishing: action `publish`, `retry`, `verify` (asking the platform whether an interrupted '
  + 'publish went through), `media_upload`, `rate_limit_pause`, `token_refresh`, `unpublish`, `edit` or `update_metadata` (an edit of a published post, with '
  + '`actorId`, who asked, and `changes`, each field before and after), with the platform, status (`success`, `failed`, '
  + '`pending`, `skipped`), the platform\'s HTTP status and endpoint when it answered with an error, the duration, the attempt number, the error '
  + 'category and an excerpt of the platform\'s answer (at most 2,000 characters, tokens and secrets removed). Entries are kept 90 days.';

export const logsRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'logs'> }> = async (app, { services }) => {
  app.get('/logs', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Logs'], summary: 'List publishing logs', description: `${LOG_DESCRIPTION} Newest first; \`days\` (default 7) bounds the look-back.`,
      querystring: ListLogsQuery, response: { 200: LogListResponse, ...errors() },
    },
  }, async (req) => services.logs.list(req.auth, req.query));

  app.get('/logs/:logId', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Logs'], summary: 'Get a publishing log entry',
      params: Type.Object({ logId: Id('Log entry id (the `_id` of a log entry)') }),
      response: { 200: Type.Object({ log: LogEntry }), ...errors() },
    },
  }, async (req) => services.logs.get(req.auth, req.params.logId));

  app.get('/posts/:postId/logs', {
    config: { permission: 'posts:read' },
    schema: {
      tags: ['Logs'], summary: 'List a post\'s publishing logs', description: `${LOG_DESCRIPTION} Newest first; all 90 days unless \`days\` is given.`,
      params: Type.Object({ postId: Id() }), querystring: Type.Omit(ListLogsQuery, ['postId', 'accountId']),
      response: { 200: LogListResponse, ...errors() },
    },
  }, async (req) => services.logs.listForPost(req.auth, req.params.postId, req.query));
};
