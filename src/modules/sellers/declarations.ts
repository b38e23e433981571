// What the sellers module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { Seller } from './schemas.js';

export const SELLER_ID_PREFIXES = {
  seller: 'sel',
  storefront: 'sto',
} as const;

export const SELLER_EVENT_TYPES = [
  eventGroup({ objectName: 'Seller', object: Seller, rank: 10 }, {
    'seller.created': ['A seller was created.'],
    'seller.updated': ['A seller\'s fields (profile, storefront, contact, metadata) changed.', 'previous_attributes'],
    'seller.erased': ['A seller was erased: its personal data now reads `[erased]`, here and in its earlier events.'],
    'seller.suspended': ['A seller was suspended: its listings cannot be bought and it cannot publish.'],
    'seller.unsuspended': ['A seller\'s suspension was lifted.'],
    'seller.verification_updated': ['A seller\'s verification state changed (a verification was started or decided).', 'previous_attributes'],
    'seller.payouts_updated': ['A seller\'s payouts state changed, as the payment processor reported its onboarding.', 'previous_attributes'],
  }),
] as const;

type SellerIdPrefixes = typeof SELLER_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends SellerIdPrefixes {}
}

type SellerEventTypes = EventTypesOf<typeof SELLER_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends SellerEventTypes {}
}
