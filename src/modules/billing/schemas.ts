/** Route schemas of billing (Herald's own routes: the Late API has no billing calls). */
import { Type } from 'typebox';
import { ADDON_IDS, PLAN_IDS } from '../../shared/plans.ts';

export const BillingPeriod = Type.Union([Type.Literal('monthly'), Type.Literal('yearly')]);
const PaidPlan = Type.Union(PLAN_IDS.filter((p) => p !== 'free').map((p) => Type.Literal(p)));
const Addon = Type.Union(ADDON_IDS.map((a) => Type.Literal(a)));

export const BillingStatus = Type.Object({
  configured: Type.Boolean({ description: 'Stripe billing is set up on this server; when false, plans are managed with the herald CLI' }),
  plan: Type.String(),
  billingPeriod: BillingPeriod,
  addons: Type.Array(Type.String()),
  hasSubscription: Type.Boolean(),
  hasBillingAccount: Type.Boolean({ description: 'A Stripe customer exists: the customer portal can be opened' }),
  plans: Type.Array(Type.Object({ plan: Type.String(), billingPeriod: BillingPeriod }), { description: 'Plans with a Stripe price' }),
  addonsForSale: Type.Array(Type.String()),
});

export const CheckoutBody = Type.Object({
  plan: PaidPlan,
  billingPeriod: BillingPeriod,
  addons: Type.Optional(Type.Array(Addon, { maxItems: ADDON_IDS.length, uniqueItems: true })),
});

export const UrlResponse = Type.Object({ url: Type.String({ description: 'Open this Stripe page in the browser' }) });
