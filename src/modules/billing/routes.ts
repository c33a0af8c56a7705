import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../route-kit/schemas.ts';
import type { Services } from '../../services.ts';
import { BillingStatus, CheckoutBody, UrlResponse } from './schemas.ts';

/** Billing under /v1 (account owner only): status, Stripe Checkout and the customer portal. */
export const billingRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'billing'> }> = async (app, { services }) => {
  app.get('/billing', {
    config: { permission: 'usage:read' },
    schema: { tags: ['Usage'], summary: 'Your plan, add-ons and what Stripe billing offers on this server', response: { 200: BillingStatus, ...errors(403) } },
  }, async (req) => services.billing.status(req.auth));

  app.post('/billing/checkout', {
    config: { permission: 'usage:write' },
    schema: {
      tags: ['Usage'], summary: 'Start Stripe Checkout for a paid plan (and add-ons)',
      description: 'Answers the Checkout page URL. 404 when billing is not configured; 409 when a subscription exists (use the portal).',
      body: CheckoutBody, response: { 200: UrlResponse, ...errors(403, 409) },
    },
  }, async (req) => services.billing.checkout(req.auth, req.body));

  app.post('/billing/portal', {
    config: { permission: 'usage:write' },
    schema: { tags: ['Usage'], summary: "Open Stripe's customer portal (change plan, payment method, invoices, cancel)", response: { 200: UrlResponse, ...errors(403, 409) } },
  }, async (req) => services.billing.portal(req.auth));
};

/**
 * `POST /webhooks/stripe`, outside /v1 and without an API key: Stripe's signature
 * (`Stripe-Signature`) is checked over the raw body, so JSON is not parsed before it.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncTypebox<{ services: Pick<Services, 'billing'> }> = async (app, { services }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
  app.post('/webhooks/stripe', {
    schema: {
      hide: true,
      headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String({ maxLength: 2000 })) }),
      response: { 200: Type.Object({ received: Type.Boolean(), outcome: Type.String() }), ...errors() },
    },
  }, async (req) => services.billing.webhook(typeof req.body === 'string' ? req.body : '', req.headers['stripe-signature']));
};
