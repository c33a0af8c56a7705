/** Route schemas of team invites (shapes of `POST /v1/invite/tokens` follow the Late API). */
import { Type } from 'typebox';
import { Id } from '../../route-kit/schemas.ts';

export const Scope = Type.Union([Type.Literal('all'), Type.Literal('profiles')], { description: '"all" profiles, or only "profiles" listed in profileIds' });

export const CreateInviteBody = Type.Object({
  scope: Scope,
  profileIds: Type.Optional(Type.Array(Id(), { maxItems: 250, description: 'Required when scope is "profiles"; every profile must be yours' })),
});

/** The invite body with the official client's extra fields (roles beyond "member" are refused, not ignored). */
export const CreateInviteTokenBody = Type.Object({
  ...CreateInviteBody.properties,
  role: Type.Optional(Type.String({ maxLength: 32, description: 'Only "member" (the default) is supported' })),
  readOnly: Type.Optional(Type.Boolean({ description: 'Only false is supported' })),
});

export const InviteToken = Type.Object({
  token: Type.String({ description: 'Single-use invite token (shown only here)' }),
  scope: Scope,
  invitedProfileIds: Type.Array(Type.String()),
  expiresAt: Type.String({ format: 'date-time', description: '7 days after creation' }),
  inviteUrl: Type.String({ description: 'Sign-up page for the invitee: /signup?inviteToken=<token>' }),
});

export const PendingInvite = Type.Object({
  _id: Type.String(),
  scope: Scope,
  invitedProfileIds: Type.Array(Type.String()),
  expiresAt: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const InvitePreview = Type.Object({
  inviterName: Type.String(),
  scope: Scope,
  profiles: Type.Array(Type.Object({ _id: Type.String(), name: Type.String() })),
  expiresAt: Type.String({ format: 'date-time' }),
});
