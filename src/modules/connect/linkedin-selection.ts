/**
 * LinkedIn author selection at connect time (spec.md section 7; late-api.md 2.5).
 *
 * When the member administers organizations (approved ADMINISTRATOR in
 * `GET /rest/organizationAcls?q=roleAssignee`), the OAuth callback does not store the account
 * at once: it keeps the tokens sealed under a tempToken (./selection.ts) and sends the browser
 * to the dashboard's `/dashboard/connect/linkedin/select-organization?tempToken&profileId`
 * (API completion answers `{ message, tempToken, organizations }`). The choice is posted to
 * POST /v1/connect/linkedin/select-organization `{profileId, tempToken, userProfile,
 * accountType: 'personal' | 'organization', selectedOrganization?}`, which stores the account
 * with accountType and selectedOrganization. A member with no organization (or whose app lacks
 * the organization scopes) is connected directly as a personal account, as before.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, fieldError } from '../../core/errors.ts';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import type { PlatformApp } from '../../platforms/oauth.ts';
import { linkedinJson } from '../../platforms/linkedin/rest.ts';
import { AdapterError } from '../../platforms/types.ts';
import { AccountSchema } from '../accounts/routes.ts';
import { toAccountView, type AccountRow } from '../accounts/service.ts';
import { redirectWith } from './oauth-service.ts';
import { createSelectionStore } from './selection.ts';

export interface LinkedInOrgChoice { id: string; urn: string; name: string; vanityName: string | null }

/** Payload of a LinkedIn selection (sealed in connect_selections). */
export interface LinkedInSelectionPayload {
  tokens: Record<string, unknown> & { accessToken: string; expiresAt?: string | null };
  identity: { platformUserId: string; username: string; displayName?: string; profilePicture?: string; permissions?: string[] };
  organizations: LinkedInOrgChoice[];
}

const ORG_URN = /^urn:li:organization:(\d+)$/;

/**
 * Organizations the member is an approved ADMINISTRATOR of, with names. Any failure (missing
 * scope, LinkedIn down) answers [] so the member can still connect as a personal account.
 */
export async function linkedinAdminOrganizations(app: PlatformApp, token: string): Promise<LinkedInOrgChoice[]> {
  try {
    const acl = await linkedinJson<{ elements?: Array<{ organization?: string; role?: string; state?: string }> }>(app.apiBaseUrl, '/rest/organizationAcls', {
      token, query: { q: 'roleAssignee', role: 'ADMINISTRATOR', state: 'APPROVED', count: 100 },
    });
    const ids = (acl.body.elements ?? []).filter((e) => e.role === 'ADMINISTRATOR' && e.state === 'APPROVED')
      .map((e) => ORG_URN.exec(e.organization ?? '')?.[1]).filter((x): x is string => Boolean(x));
    const out: LinkedInOrgChoice[] = [];
    for (const id of ids) {
      const o = await linkedinJson<{ localizedName?: string; vanityName?: string }>(app.apiBaseUrl, `/rest/organizations/${id}`, { token });
      out.push({ id, urn: `urn:li:organization:${id}`, name: o.body.localizedName ?? `Organization ${id}`, vanityName: o.body.vanityName ?? null });
    }
    return out;
  } catch (err) {
    if (err instanceof AdapterError) return [];
    throw err;
  }
}

const Org = Type.Object({ id: Type.String(), urn: Type.String(), name: Type.String(), vanityName: Type.Union([Type.String(), Type.Null()]) });
export const LinkedInOrgChoiceSchema = Org;

export const linkedinSelectionRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const selections = createSelectionStore({ db: services.db, secrets: services.secrets, clock: services.clock });

  app.get('/connect/linkedin/select-organization', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'List the organizations a LinkedIn member can publish as (during connect)',
      description: 'The organizations (approved administrator) found for the tempToken of a LinkedIn connection; the tempToken stays valid.',
      querystring: Type.Object({ profileId: Id(), tempToken: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: Type.Object({ organizations: Type.Array(Org) }), ...errors(403) },
    },
  }, async (req) => {
    const sel = await selections.peek<LinkedInSelectionPayload>(req.auth, 'linkedin', req.query.profileId, req.query.tempToken);
    return { organizations: sel.payload.organizations };
  });

  app.post('/connect/linkedin/select-organization', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'Finish connecting LinkedIn as the member or one of their organizations',
      description: 'tempToken comes from the OAuth callback when the member administers organizations (1 hour, single use). accountType organization ' +
        'needs selectedOrganization with its numeric company id (urn:li:organization:<digits>), which must be one the member administers (403 otherwise).',
      body: Type.Object({
        profileId: Id(), tempToken: Type.String({ minLength: 1, maxLength: 200 }),
        userProfile: Type.Optional(Type.Object({}, { additionalProperties: true })),
        accountType: Type.Union([Type.Literal('personal'), Type.Literal('organization')]),
        selectedOrganization: Type.Optional(Type.Union([Type.Object({
          id: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Integer({ minimum: 1 })])), urn: Type.Optional(Type.String({ maxLength: 100 })),
          name: Type.Optional(Type.String({ maxLength: 300 })), logoUrl: Type.Optional(Type.String({ maxLength: 2000 })), vanityName: Type.Optional(Type.String({ maxLength: 300 })),
        }, { additionalProperties: true }), Type.Null()])),
        redirect_url: Type.Optional(Type.String({ maxLength: 2000 })),
      }),
      response: {
        200: Type.Object({ message: Type.String(), redirect_url: Type.Optional(Type.String()), account: Type.Intersect([AccountSchema, Type.Object({ accountId: Type.String() })]) }),
        ...errors(403),
      },
    },
  }, async (req) => {
    const b = req.body;
    const sel = await selections.peek<LinkedInSelectionPayload>(req.auth, 'linkedin', b.profileId, b.tempToken);
    let selected: (LinkedInOrgChoice & Record<string, unknown>) | null = null;
    if (b.accountType === 'organization') {
      const so = b.selectedOrganization;
      if (!so || (so.id === undefined && !so.urn)) throw fieldError('selectedOrganization', 'is required for accountType organization: give its numeric id or urn (urn:li:organization:<numeric id>)');
      const vanity = 'use the numeric company id (urn:li:organization:12345), not a vanity name';
      let id: string | undefined;
      if (so.urn !== undefined) {
        const m = ORG_URN.exec(so.urn);
        if (!m) throw fieldError('selectedOrganization.urn', `"${so.urn}" is not an organization URN: ${vanity}`);
        id = m[1];
      }
      if (so.id !== undefined) {
        const sid = String(so.id);
        if (!/^\d+$/.test(sid)) throw fieldError('selectedOrganization.id', `"${sid}" is not a numeric company id: ${vanity}`);
        if (id && id !== sid) throw fieldError('selectedOrganization.id', `does not match the urn (${id})`);
        id = sid;
      }
      const org = sel.payload.organizations.find((o) => o.id === id);
      if (!org) throw new AppError('FORBIDDEN', `The LinkedIn member is not an approved administrator of urn:li:organization:${id}`, { platform: 'linkedin' });
      selected = { ...org, name: org.name || so.name || org.urn };
    }
    await selections.consume(sel.token);
    const { tokens, identity } = sel.payload;
    const account = await services.accounts.upsertConnected(req.auth, sel.profileId, 'linkedin', {
      ...identity, credentials: tokens, tokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
      permissions: identity.permissions ?? ['posts:write', 'posts:read'],
      settings: selected ? { accountType: 'organization', selectedOrganization: selected } : { accountType: 'personal' },
    });
    let row: AccountRow = account;
    if (!selected) {
      const { rows } = await services.db.query<AccountRow>(`UPDATE accounts SET settings = settings - 'selectedOrganization' WHERE id = $1 RETURNING *`, [account.id]);
      row = rows[0];
    }
    const view = toAccountView(row);
    const target = b.redirect_url ?? sel.redirectUrl;
    const redirect = target ? redirectWith(target, { connected: 'linkedin', profileId: sel.profileId, username: view.username, accountId: view._id }) : null;
    return {
      message: selected ? `LinkedIn connected: publishing as ${selected.name}` : 'LinkedIn connected: publishing as the member (personal profile)',
      ...(redirect ? { redirect_url: redirect } : {}), account: { ...view, accountId: view._id },
    };
  });
};
