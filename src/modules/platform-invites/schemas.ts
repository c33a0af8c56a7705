/** Request and response schemas of /v1/platform-invites (the fields the official client 0.1.0 sends and reads). */
import { Type } from 'typebox';
import { Id, Timestamp } from '../../route-kit/schemas.ts';
import { PLATFORMS } from '../../shared/platforms.ts';

const InviteFields = {
  _id: Type.String(),
  token: Type.String({ description: 'The invite token (also the last path segment but one of inviteUrl)' }),
  userId: Type.String({ description: 'The user who created the invite' }),
  platform: Type.String(),
  inviterName: Type.String(),
  inviterEmail: Type.String(),
  expiresAt: Timestamp('7 days after creation'),
  isUsed: Type.Boolean({ description: 'True once an account was connected with it (invites are single use)' }),
  createdAt: Timestamp(),
};

export const CreatePlatformInviteBody = Type.Object({
  profileId: Id('The profile the connected account joins'),
  platform: Type.Enum(PLATFORMS, { description: 'The platform the recipient connects' }),
});

export const CreatedPlatformInvite = Type.Object({
  invite: Type.Object({
    ...InviteFields,
    profileId: Type.String(),
    inviteUrl: Type.String({ description: 'The page to send to the client: no login needed; it runs the platform\'s connect flow' }),
  }),
});

export const PlatformInviteList = Type.Object({
  invites: Type.Array(Type.Object({ ...InviteFields, profileId: Type.Object({ _id: Type.String(), name: Type.String() }) })),
});

export const ListPlatformInvitesQuery = Type.Object({ profileId: Type.Optional(Id()) });
export const RevokePlatformInviteQuery = Type.Object({ id: Id('The invite\'s _id') });
