// Every event type the service emits. Webhook subscriptions and the events list filter check
// against this list; '*' in a subscription also selects types added later.
export const EVENT_TYPES = [
  'seller.created', 'seller.updated', 'seller.erased', 'seller.suspended', 'seller.unsuspended',
  'seller.verification_updated', 'seller.payouts_updated',
  'buyer.created', 'buyer.updated', 'buyer.erased',
  'category.created', 'category.updated',
  'listing.created', 'listing.updated', 'listing.published', 'listing.unpublished', 'listing.sold',
  'listing.expired', 'listing.removed',
  'media.ready', 'media.deleted',
  'order.created', 'order.committed', 'order.claimed', 'order.cancellation_proposed',
  'order.cancellation_declined', 'order.cancelled', 'order.expired', 'order.completed', 'order.disputed',
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
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
