// The event catalog: for every event type, what it means and the schema of the object it carries
// (data.object), which is the schema the object's own routes answer with. A Record over EventType,
// so a type added to src/contracts/events.ts without its entry here does not compile. Served by
// GET /v1/event_types and, as the OpenAPI document's `webhooks`, by src/app/runtime.ts.
import type { TObject } from '@sinclair/typebox';
import type { EventType } from '../../contracts/events.js';
import { Buyer } from '../buyers/index.js';
import { Category } from '../categories/index.js';
import { Checkout } from '../checkouts/index.js';
import { Listing } from '../listings/index.js';
import { Media } from '../media/index.js';
import { Flag } from '../moderation/index.js';
import { Dispute, Order } from '../orders/index.js';
import { ModerationAction } from '../parties/index.js';
import { CardDispute, Payment, Refund } from '../payments/index.js';
import { ReputationEvent } from '../reputation/index.js';
import { Report } from '../reports/index.js';
import { Review } from '../reviews/index.js';
import { Seller } from '../sellers/index.js';
import { Verification } from '../verifications/index.js';

export interface EventTypeEntry {
  description: string;
  /** The schema of data.object. */
  object: TObject;
  /** The component name of the object in the OpenAPI document (its $id where it has one). */
  objectName: string;
  /** Whether the event may carry data.previous_attributes: the old values of the fields that changed. */
  previousAttributes: boolean;
}

type Entry = readonly [description: string, previousAttributes?: 'previous_attributes'];

/** One group of types carrying one object. */
function group<T extends EventType>(objectName: string, object: TObject, entries: Record<T, Entry>): Record<T, EventTypeEntry> {
  const out = {} as Record<T, EventTypeEntry>;
  for (const [type, [description, previous]] of Object.entries(entries) as Array<[T, Entry]>) {
    out[type] = { description, object, objectName, previousAttributes: previous !== undefined };
  }
  return out;
}

const PREVIOUS = 'previous_attributes';

export const EVENT_CATALOG: Readonly<Record<EventType, EventTypeEntry>> = {
  ...group('Seller', Seller, {
    'seller.created': ['A seller was created.'],
    'seller.updated': ['A seller\'s fields (profile, storefront, contact, metadata) changed.', PREVIOUS],
    'seller.erased': ['A seller was erased: its personal data now reads `[erased]`, here and in its earlier events.'],
    'seller.suspended': ['A seller was suspended: its listings cannot be bought and it cannot publish.'],
    'seller.unsuspended': ['A seller\'s suspension was lifted.'],
    'seller.verification_updated': ['A seller\'s verification state changed (a verification was started or decided).', PREVIOUS],
    'seller.payouts_updated': ['A seller\'s payouts state changed, as the payment processor reported its onboarding.', PREVIOUS],
  }),
  ...group('Buyer', Buyer, {
    'buyer.created': ['A buyer was created.'],
    'buyer.updated': ['A buyer\'s fields changed.', PREVIOUS],
    'buyer.erased': ['A buyer was erased: its personal data now reads `[erased]`, here and in its earlier events.'],
  }),
  ...group('Category', Category, {
    'category.created': ['A category was created.'],
    'category.updated': ['A category\'s fields or attribute schema changed.', PREVIOUS],
  }),
  ...group('Listing', Listing, {
    'listing.created': ['A listing was created, as a draft.'],
    'listing.updated': ['A listing\'s fields changed.', PREVIOUS],
    'listing.published': ['A listing was published: buyers can find and order it.'],
    'listing.unpublished': ['A published listing went back to draft.'],
    'listing.sold': ['Every unit of a listing was sold.'],
    'listing.expired': ['A published listing reached its expires_at.'],
    'listing.removed': ['A listing was removed (by the platform, moderation, or its seller\'s erasure).'],
  }),
  ...group('Media', Media, {
    'media.ready': ['An uploaded file was checked and is now served.'],
    'media.deleted': ['A media file was deleted.'],
  }),
  ...group('Order', Order, {
    'order.created': ['An order was placed: its units are reserved until its payment window closes.'],
    'order.committed': ['An order was committed: paid, its units are the buyer\'s.'],
    'order.claimed': ['The seller claimed the order as fulfilled; the buyer\'s confirmation window opens.'],
    'order.cancellation_proposed': ['A party proposed to cancel the order.'],
    'order.cancellation_declined': ['The other party declined a proposed cancellation.'],
    'order.cancelled': ['An order was cancelled (agreed by both parties, or a dispute decided for the buyer).'],
    'order.expired': ['An order was not paid within its payment window: its units were returned.'],
    'order.completed': ['An order was completed (confirmed by the buyer, its window closed, or a dispute decided for the seller).'],
    'order.disputed': ['The buyer disputed the order.'],
    'order.booking_starting': ["An order's booked time starts within the mode's booking_reminder_seconds (sent once, for an order committed, claimed or completed; docs/bookings.md)."],
  }),
  ...group('Checkout', Checkout, {
    'checkout.created': ['A checkout was created with one order per item.'],
    'checkout.completed': ['A checkout\'s payment succeeded: its orders are committed.'],
    'checkout.expired': ['A checkout was not paid in time: its orders expired.'],
    'checkout.cancelled': ['A checkout was cancelled before its payment.'],
  }),
  ...group('Payment', Payment, {
    'payment.created': ['A payment was created for an order or a checkout.'],
    'payment.succeeded': ['The processor reported the payment collected.'],
    'payment.failed': ['The processor reported an attempt to pay failed; the payment may still succeed.'],
    'payment.canceled': ['A payment was canceled before it succeeded.'],
    'payment.refunded': ['A refund of the payment succeeded (amount_refunded changed).'],
    'payment.released': ['The seller\'s share of the payment was transferred to the seller.'],
    'payment.release_failed': ['The transfer of the seller\'s share failed.'],
  }),
  ...group('Refund', Refund, {
    'refund.created': ['A refund was created.'],
    'refund.updated': ['A refund\'s status changed (succeeded or failed).', PREVIOUS],
  }),
  ...group('Report', Report, {
    'report.succeeded': ['A report was built: its CSV file can be downloaded through `file.url`.'],
    'report.failed': ['A report could not be built; `failure` says why. Ask for it again.'],
  }),
  ...group('Verification', Verification, {
    'verification.created': ['A seller verification was started.'],
    'verification.updated': ['A verification was approved or rejected.', PREVIOUS],
  }),
  ...group('Review', Review, {
    'review.created': ['A review was submitted; it stays hidden until both parties reviewed or the window closed.'],
    'review.visible': ['A review became visible.'],
    'review.removed': ['A review was removed by moderation.'],
  }),
  ...group('ReputationEvent', ReputationEvent, {
    'reputation_event.created': ['A reputation event was recorded for a party.'],
    'reputation_event.voided': ['A reputation event was voided and no longer counts.'],
  }),
  ...group('Dispute', Dispute, {
    'dispute.created': ['A buyer opened a dispute of an order.'],
    'dispute.evidence_added': ['A party added evidence to a dispute.'],
    'dispute.updated': ['A dispute\'s status changed.', PREVIOUS],
    'dispute.decision_overdue': ['A dispute was not decided within its decision window.'],
    'dispute.decided': ['The platform decided a dispute.', PREVIOUS],
  }),
  ...group('CardDispute', CardDispute, {
    'card_dispute.created': ['The processor reported a chargeback on a payment.'],
    'card_dispute.updated': ['A chargeback\'s status changed.', PREVIOUS],
  }),
  ...group('Flag', Flag, {
    'flag.created': ['A flag was raised against a listing, review, seller or buyer.'],
    'flag.resolved': ['A flag was resolved.'],
  }),
  ...group('ModerationAction', ModerationAction, {
    'moderation_action.created': ['A moderation action was recorded.'],
  }),
};
