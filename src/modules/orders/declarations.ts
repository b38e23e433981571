// What the orders module declares for the composition root to assemble (its manifest lists it): its
// error codes with their HTTP statuses, the prefixes of its ids and its event types with their
// catalog entries (description, the object carried). The `declare module`s make each code a checked
// ErrorCode, each kind a checked IdKind and each type a checked EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import type { CodesOf } from '../../contracts/wiring.js';
import { Dispute, Order } from './schemas.js';

export const ORDER_ERROR_CODES = {
  dispute_window_closed: 409,
} as const;

export const ORDER_ID_PREFIXES = {
  order: 'ord',
  dispute: 'dsp',
  orderTransition: 'otr',
} as const;

export const ORDER_EVENT_TYPES = [
  eventGroup({ objectName: 'Order', object: Order, rank: 60 }, {
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
  eventGroup({ objectName: 'Dispute', object: Dispute, rank: 130 }, {
    'dispute.created': ['A buyer opened a dispute of an order.'],
    'dispute.evidence_added': ['A party added evidence to a dispute.'],
    'dispute.updated': ['A dispute\'s status changed.', 'previous_attributes'],
    'dispute.decision_overdue': ['A dispute was not decided within its decision window.'],
    'dispute.decided': ['The platform decided a dispute.', 'previous_attributes'],
  }),
] as const;

type OrderErrorCodes = CodesOf<typeof ORDER_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends OrderErrorCodes {}
}

type OrderIdPrefixes = typeof ORDER_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends OrderIdPrefixes {}
}

type OrderEventTypes = EventTypesOf<typeof ORDER_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends OrderEventTypes {}
}
