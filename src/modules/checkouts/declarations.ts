// What the checkouts module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { Checkout } from './schemas.js';

export const CHECKOUT_ID_PREFIXES = {
  checkout: 'chk',
} as const;

export const CHECKOUT_EVENT_TYPES = [
  eventGroup({ objectName: 'Checkout', object: Checkout, rank: 70 }, {
    'checkout.created': ['A checkout was created with one order per item.'],
    'checkout.completed': ['A checkout\'s payment succeeded: its orders are committed.'],
    'checkout.expired': ['A checkout was not paid in time: its orders expired.'],
    'checkout.cancelled': ['A checkout was cancelled before its payment.'],
  }),
] as const;

type CheckoutIdPrefixes = typeof CHECKOUT_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends CheckoutIdPrefixes {}
}

type CheckoutEventTypes = EventTypesOf<typeof CHECKOUT_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends CheckoutEventTypes {}
}
