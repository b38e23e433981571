// What the listings module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { Listing } from './schemas.js';

export const LISTING_ID_PREFIXES = {
  listing: 'lst',
} as const;

export const LISTING_EVENT_TYPES = [
  eventGroup({ objectName: 'Listing', object: Listing, rank: 40 }, {
    'listing.created': ['A listing was created, as a draft.'],
    'listing.updated': ['A listing\'s fields changed.', 'previous_attributes'],
    'listing.published': ['A listing was published: buyers can find and order it.'],
    'listing.unpublished': ['A published listing went back to draft.'],
    'listing.sold': ['Every unit of a listing was sold.'],
    'listing.expired': ['A published listing reached its expires_at.'],
    'listing.removed': ['A listing was removed (by the platform, moderation, or its seller\'s erasure).'],
  }),
] as const;

type ListingIdPrefixes = typeof LISTING_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends ListingIdPrefixes {}
}

type ListingEventTypes = EventTypesOf<typeof LISTING_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends ListingEventTypes {}
}
