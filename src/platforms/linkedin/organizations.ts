/**
 * The LinkedIn organizations a member administers: `GET /rest/organizationAcls?q=roleAssignee`
 * with role ADMINISTRATOR and state APPROVED, then `GET /rest/organizations/{id}` for names
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role,
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-lookup-api).
 */
import type { PlatformApp } from '../oauth.ts';
import { linkedinJson } from './rest.ts';

/** `urn:li:organization:<numeric id>` */
export const ORGANIZATION_URN = /^urn:li:organization:(\d+)$/;

/** An organization the member administers. */
export interface LinkedInOrgChoice { id: string; urn: string; name: string; vanityName: string | null }

/** Organization ids (numeric strings) the member is an approved ADMINISTRATOR of. @throws AdapterError */
export async function linkedinAdminOrganizationIds(baseUrl: string, token: string): Promise<string[]> {
  const { body } = await linkedinJson<{ elements?: Array<{ organization?: string; role?: string; state?: string }> }>(baseUrl, '/rest/organizationAcls', {
    token, query: { q: 'roleAssignee', role: 'ADMINISTRATOR', state: 'APPROVED', count: 100 },
  });
  return (body.elements ?? [])
    .filter((e) => e.role === 'ADMINISTRATOR' && e.state === 'APPROVED')
    .map((e) => ORGANIZATION_URN.exec(e.organization ?? '')?.[1])
    .filter((x): x is string => Boolean(x));
}

/** One organization as `GET /rest/organizations/{id}` answers it. @throws AdapterError */
export async function linkedinOrganization(baseUrl: string, token: string, id: string): Promise<{ id?: number; localizedName?: string; vanityName?: string }> {
  return (await linkedinJson<{ id?: number; localizedName?: string; vanityName?: string }>(baseUrl, `/rest/organizations/${id}`, { token })).body;
}

/** The organizations the member administers, with names. @throws AdapterError */
export async function linkedinAdminOrganizations(app: PlatformApp, token: string): Promise<LinkedInOrgChoice[]> {
  const out: LinkedInOrgChoice[] = [];
  for (const id of await linkedinAdminOrganizationIds(app.apiBaseUrl, token)) {
    const o = await linkedinOrganization(app.apiBaseUrl, token, id);
    out.push({ id, urn: `urn:li:organization:${id}`, name: o.localizedName ?? `Organization ${id}`, vanityName: o.vanityName ?? null });
  }
  return out;
}
