/**
 * The plan table, the single source for limits in the API, the usage endpoint and the
 * pricing page (pure: shared with the web app). `-1` means unlimited.
 *
 * There are two readings: prices (Free $0 / Build-Basic $19 / Accelerate-Professional
 * $49 stackable / Unlimited $999) and profile limits (Free 2, Basic 10, Professional 50,
 * Advanced 150, Enterprise 250). Herald models every tier of both: the plan ids are the
 * API names (free, basic, professional, advanced, enterprise) plus `unlimited` (unlimited
 * posts and profiles). Advanced and Enterprise are priced as stacks of Accelerate (3 and 5
 * times $49). The marketing names are kept for display. See
 * docs/decisions/0003-plan-table.md and docs/decisions/0036-teams-plans-billing.md.
 */

export const PLAN_IDS = ['free', 'basic', 'professional', 'advanced', 'enterprise', 'unlimited'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  /** Name used in API bodies (`planName`). */
  name: string;
  /** Marketing name on the pricing page. */
  marketingName: string;
  /** Price per month in US dollars with monthly billing. */
  monthlyPriceUsd: number;
  /** Posts (uploads) per billing period; -1 unlimited. Drafts do not count. */
  uploads: number;
  /** Profiles held at once; -1 unlimited. */
  profiles: number;
  /** General API requests per minute per user. */
  requestsPerMinute: number;
  /** Whether the pricing page labels the plan "MOST POPULAR". */
  mostPopular: boolean;
}

export const PLANS: Record<PlanId, Plan> = {
  free: { id: 'free', name: 'Free', marketingName: 'Free', monthlyPriceUsd: 0, uploads: 10, profiles: 2, requestsPerMinute: 60, mostPopular: false },
  basic: { id: 'basic', name: 'Basic', marketingName: 'Build', monthlyPriceUsd: 19, uploads: 120, profiles: 10, requestsPerMinute: 120, mostPopular: false },
  professional: { id: 'professional', name: 'Professional', marketingName: 'Accelerate', monthlyPriceUsd: 49, uploads: -1, profiles: 50, requestsPerMinute: 600, mostPopular: true },
  advanced: { id: 'advanced', name: 'Advanced', marketingName: 'Advanced', monthlyPriceUsd: 147, uploads: -1, profiles: 150, requestsPerMinute: 1200, mostPopular: false },
  enterprise: { id: 'enterprise', name: 'Enterprise', marketingName: 'Enterprise', monthlyPriceUsd: 245, uploads: -1, profiles: 250, requestsPerMinute: 1200, mostPopular: false },
  unlimited: { id: 'unlimited', name: 'Unlimited', marketingName: 'Unlimited', monthlyPriceUsd: 999, uploads: -1, profiles: -1, requestsPerMinute: 1200, mostPopular: false },
};

/** Paid add-ons a tenant can hold beside its plan (analytics is a paid add-on, decision 0030; AI clipping has a free tier and an add-on, decision 0028). */
export const ADDON_IDS = ['analytics', 'clips'] as const;
export type AddonId = (typeof ADDON_IDS)[number];

export interface Addon {
  id: AddonId;
  name: string;
  /** What the add-on unlocks, one sentence for the pricing page and upgrade answers. */
  description: string;
}

export const ADDONS: Record<AddonId, Addon> = {
  analytics: { id: 'analytics', name: 'Analytics', description: 'Per-post metrics from every platform, refreshed in the background, with charts and CSV export.' },
  clips: { id: 'clips', name: 'AI Clipping', description: 'AI video clipping with credits and no watermark.' },
};

export function isAddonId(v: unknown): v is AddonId {
  return typeof v === 'string' && (ADDON_IDS as readonly string[]).includes(v);
}

/** Annual billing saves 40% against twelve monthly payments. */
export const ANNUAL_DISCOUNT = 0.4;

export function isPlanId(v: unknown): v is PlanId {
  return typeof v === 'string' && (PLAN_IDS as readonly string[]).includes(v);
}

/** True when `used` has reached a limit (`-1` never is reached). */
export function limitReached(limit: number, used: number): boolean {
  return limit !== -1 && used >= limit;
}
