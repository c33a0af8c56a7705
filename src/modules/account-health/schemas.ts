/** Response schemas of GET /v1/accounts/health and GET /v1/accounts/{accountId}/health (the Late client's shapes, plus Herald's last publish). */
import { Type } from 'typebox';
import { Nullable, NullableTimestamp } from '../../route-kit/schemas.ts';

const Scope = Type.Object({ scope: Type.String(), granted: Type.Boolean(), required: Type.Boolean() });

const LastPublish = Type.Union([Type.Object({
  status: Type.String({ description: 'success, failed or pending (the log entry\'s status)' }),
  action: Type.String(),
  at: Type.String({ format: 'date-time' }),
  postId: Nullable(Type.String()),
  errorMessage: Nullable(Type.String()),
  errorCategory: Nullable(Type.String()),
  logId: Type.String(),
}), Type.Null()], { description: 'The account\'s latest finished publish (GET /v1/logs has the details); null when none in 90 days' });

/** One account's health in the list. */
export const AccountHealthSummary = Type.Object({
  accountId: Type.String(),
  platform: Type.String(),
  username: Type.String(),
  displayName: Type.String(),
  profileId: Type.String(),
  status: Type.String({ enum: ['healthy', 'warning', 'error'] }),
  canPost: Type.Boolean(),
  canFetchAnalytics: Type.Boolean(),
  tokenValid: Type.Boolean(),
  tokenExpiresAt: NullableTimestamp(),
  needsReconnect: Type.Boolean(),
  issues: Type.Array(Type.String()),
  lastPublish: LastPublish,
});

export const AccountsHealthResponse = Type.Object({
  summary: Type.Object({ total: Type.Integer(), healthy: Type.Integer(), warning: Type.Integer(), error: Type.Integer(), needsReconnect: Type.Integer() }),
  accounts: Type.Array(AccountHealthSummary),
});

export const AccountHealthResponse = Type.Object({
  ...AccountHealthSummary.properties,
  tokenStatus: Type.Object({
    valid: Type.Boolean(),
    expiresAt: NullableTimestamp(),
    expiresIn: Nullable(Type.String({ description: 'Time until expiry in words ("3 days", "expired"); null when the token does not expire' })),
    needsRefresh: Type.Boolean({ description: 'The token expires within 24 hours' }),
    refreshable: Type.Boolean({ description: 'Herald refreshes this platform\'s tokens before they expire' }),
  }),
  permissions: Type.Object({
    posting: Type.Array(Scope),
    analytics: Type.Array(Scope),
    canPost: Type.Boolean(),
    canFetchAnalytics: Type.Boolean(),
    missingRequired: Type.Array(Type.String()),
  }),
  recommendations: Type.Array(Type.String()),
});
