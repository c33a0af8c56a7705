/**
 * The webhook events (docs/decisions/0038-webhook-outbox.md): the names a webhook subscribes to,
 * shared by the server (the outbox, the route schemas) and the dashboard's Webhooks page, so that
 * an event the server sends is one the page offers. The payloads are in the docs' Webhooks guide.
 */

/** The events a webhook can subscribe to (the official client's names, then Herald's own). */
export const WEBHOOK_EVENTS = [
  'post.scheduled', 'post.published', 'post.failed', 'post.partial', 'post.cancelled',
  'post.platform.published', 'post.platform.failed', 'account.connected', 'account.disconnected', 'webhook.test',
  // Herald's own: a second copy of a target's post reached the platform (decision 0045).
  'post.platform.duplicate',
  // Herald's own: approvals (decision 0059).
  'post.submitted', 'post.approved', 'post.changes_requested', 'post.commented',
  // Herald's own: a recycled copy of a post was created (decision 0061).
  'post.recycled',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The events a user picks for a webhook (`webhook.test` is sent by the test button, whatever the list). */
export const SUBSCRIBABLE_EVENTS = WEBHOOK_EVENTS.filter((e): e is Exclude<WebhookEvent, 'webhook.test'> => e !== 'webhook.test');

/** What each subscribable event means, in a few words (the dashboard's labels). */
export const WEBHOOK_EVENT_LABELS: Readonly<Record<(typeof SUBSCRIBABLE_EVENTS)[number], string>> = {
  'post.scheduled': 'Post scheduled',
  'post.published': 'Post published everywhere',
  'post.partial': 'Post partly published',
  'post.failed': 'Post failed',
  'post.cancelled': 'Post cancelled',
  'post.platform.published': 'One platform published',
  'post.platform.failed': 'One platform failed',
  'post.platform.duplicate': 'A platform got a second copy',
  'post.submitted': 'Post submitted for approval',
  'post.approved': 'Post approved',
  'post.changes_requested': 'Changes requested on a post',
  'post.commented': 'Comment on a post',
  'post.recycled': 'Recycled copy created',
  'account.connected': 'Account connected',
  'account.disconnected': 'Account disconnected',
};
