// What the payments module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { CardDispute, Payment, Refund } from './schemas.js';

export const PAYMENT_ID_PREFIXES = {
  payment: 'pay',
  refund: 'ref',
  cardDispute: 'cdp',
} as const;

export const PAYMENT_EVENT_TYPES = [
  eventGroup({ objectName: 'Payment', object: Payment, rank: 80 }, {
    'payment.created': ['A payment was created for an order or a checkout.'],
    'payment.succeeded': ['The processor reported the payment collected.'],
    'payment.failed': ['The processor reported an attempt to pay failed; the payment may still succeed.'],
    'payment.canceled': ['A payment was canceled before it succeeded.'],
    'payment.refunded': ['A refund of the payment succeeded (amount_refunded changed).'],
    'payment.released': ['The seller\'s share of the payment was transferred to the seller.'],
    'payment.release_failed': ['The transfer of the seller\'s share failed.'],
  }),
  eventGroup({ objectName: 'Refund', object: Refund, rank: 90 }, {
    'refund.created': ['A refund was created.'],
    'refund.updated': ['A refund\'s status changed (succeeded or failed).', 'previous_attributes'],
  }),
  eventGroup({ objectName: 'CardDispute', object: CardDispute, rank: 140 }, {
    'card_dispute.created': ['The processor reported a chargeback on a payment.'],
    'card_dispute.updated': ['A chargeback\'s status changed.', 'previous_attributes'],
  }),
] as const;

type PaymentIdPrefixes = typeof PAYMENT_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends PaymentIdPrefixes {}
}

type PaymentEventTypes = EventTypesOf<typeof PAYMENT_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends PaymentEventTypes {}
}
