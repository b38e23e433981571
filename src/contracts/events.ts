// Events: every type the service emits, the envelope stored and delivered, and the work a module
// may attach to every event. Every event type the service emits. Webhook subscriptions and the events list filter check
// against this list; '*' in a subscription also selects types added later.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';

export const EVENT_TYPES = [
  'seller.created', 'seller.updated', 'seller.erased', 'seller.suspended', 'seller.unsuspended',
  'seller.verification_updated', 'seller.payouts_updated',
  'buyer.created', 'buyer.updated', 'buyer.erased',
  'category.created', 'category.updated',
  'listing.created', 'listing.updated', 'listing.published', 'listing.unpublished', 'listing.sold',
  'listing.expired', 'listing.removed',
  'media.ready', 'media.deleted',
  'order.created', 'order.committed', 'order.claimed', 'order.cancellation_proposed',
  'order.cancellation_declined', 'order.cancelled', 'order.expired', 'order.completed', 'order.disputed', 'order.booking_starting',
  'checkout.created', 'checkout.completed', 'checkout.expired', 'checkout.cancelled',
  'payment.created', 'payment.succeeded', 'payment.failed', 'payment.canceled', 'payment.refunded',
  'payment.released', 'payment.release_failed',
  'refund.created', 'refund.updated',
  'verification.created', 'verification.updated',
  'review.created', 'review.visible', 'review.removed',
  'reputation_event.created', 'reputation_event.voided',
  'dispute.created', 'dispute.evidence_added', 'dispute.updated', 'dispute.decision_overdue', 'dispute.decided',
  'card_dispute.created', 'card_dispute.updated',
  'flag.created', 'flag.resolved',
  'moderation_action.created',
  'report.succeeded', 'report.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** The object an event carries (data.object): a serialized API object, with its id. */
export interface EventObject {
  id: string;
  [field: string]: unknown;
}

export interface EventRecord {
  id: string;
  object: 'event';
  type: EventType;
  api_version: 'v1';
  created: string;
  livemode: boolean;
  data: { object: EventObject; previous_attributes?: Record<string, unknown> };
}

/**
 * Work written with every event, in its transaction (webhook deliveries). Declared by modules in
 * their module.ts and handed to the database handle by the composition root (src/app/runtime.ts),
 * so the outbox depends on none of them.
 */
export type EventSubscriber = ((tx: Tx, scope: Scope, event: EventRecord) => Promise<void>) & {
  /**
   * The same work for several events of one change at once (emitEvents), in fewer statements than
   * one call per event; when absent, the subscriber is called once per event, in order.
   */
  many?: (tx: Tx, scope: Scope, events: readonly EventRecord[]) => Promise<void>;
};
