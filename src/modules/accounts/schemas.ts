/** The account as routes answer it (GET /v1/accounts and every call that returns an account). */
import { Type } from 'typebox';

export const AccountSchema = Type.Object({
  _id: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  username: Type.String(),
  displayName: Type.String(),
  profilePicture: Type.Union([Type.String(), Type.Null()]),
  profileUrl: Type.Optional(Type.String()),
  isActive: Type.Boolean(),
  needsReconnection: Type.Boolean(),
  inactiveReason: Type.Union([Type.String(), Type.Null()]),
  tokenExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  permissions: Type.Array(Type.String()),
  sandbox: Type.Optional(Type.Boolean({ description: 'True for simulator-backed sandbox accounts' })),
  selectedPageName: Type.Optional(Type.String()),
  accountType: Type.Optional(Type.String()),
  selectedOrganization: Type.Optional(Type.Unknown()),
  defaultSubreddit: Type.Optional(Type.String()),
  defaultBoardId: Type.Optional(Type.String()),
  defaultBoardName: Type.Optional(Type.String()),
  ruleSettings: Type.Optional(Type.Record(Type.String(), Type.Unknown(), {
    description: 'What the platform stated about the account that its posting rules read (Mastodon: the instance\'s limits, read at connect), for checking a post as the server does',
  })),
  tiktokPrivacyLevelOptions: Type.Optional(Type.Array(Type.String(), { description: 'TikTok: the privacy levels this creator may post with (creator info, read at connect)' })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
