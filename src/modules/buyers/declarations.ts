// What the buyers module declares for the composition root to assemble (its manifest lists it): the
// prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { Buyer } from './schemas.js';

export const BUYER_ID_PREFIXES = {
  buyer: 'byr',
} as const;

export const BUYER_EVENT_TYPES = [
  eventGroup({ objectName: 'Buyer', object: Buyer, rank: 20 }, {
    'buyer.created': ['A buyer was created.'],
    'buyer.updated': ['A buyer\'s fields changed.', 'previous_attributes'],
    'buyer.erased': ['A buyer was erased: its personal data now reads `[erased]`, here and in its earlier events.'],
  }),
] as const;

type BuyerIdPrefixes = typeof BUYER_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends BuyerIdPrefixes {}
}

type BuyerEventTypes = EventTypesOf<typeof BUYER_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends BuyerEventTypes {}
}
