/**
 * The Late-compatible routes of every platform's account resources
 * (docs/decisions/0053-account-resources-contract.md), registered from the registry: each
 * operation at the path, with the schemas and permission, its platform declares
 * (`/v1/accounts/{accountId}/pinterest-boards`, `/v1/reddit/feed`, ...). No platform is named here.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TObject } from 'typebox';
import { Id, errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';

export const accountResourceRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'accountResources'> }> = async (app, { services }) => {
  const { accountResources } = services;
  for (const { platform, operation: op } of accountResources.operations()) {
    const inPath = op.path.includes(':accountId');
    const querystring: TObject | undefined = inPath
      ? op.querystring
      : Type.Object({ accountId: op.accountOptional ? Type.Optional(Id(op.accountInQuery)) : Id(op.accountInQuery), ...(op.querystring?.properties ?? {}) });
    const response = op.answersAccount ? Type.Object({ ...op.response.properties, account: AccountSchema }) : op.response;
    app.route({
      method: op.method,
      url: op.path,
      config: { permission: op.permission },
      schema: {
        tags: [op.tag], summary: op.summary, ...(op.description ? { description: op.description } : {}),
        ...(inPath ? { params: Type.Object({ accountId: Id() }) } : {}),
        ...(querystring ? { querystring } : {}),
        ...(op.body ? { body: op.body } : {}),
        response: { 200: response, ...errors(...op.errors) },
      },
      handler: async (req) => {
        const query = (req.query ?? {}) as Record<string, unknown>;
        const accountId = inPath ? (req.params as { accountId: string }).accountId : (query.accountId as string | undefined);
        return accountResources.run(req.auth, platform, op, accountId, { query, body: (req.body ?? {}) as Record<string, unknown> });
      },
    });
  }
};
