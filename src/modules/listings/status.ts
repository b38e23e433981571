// The listing state machine (interface.md 3.1, contract 6) as one table: for each operation, the
// states it may start from and the state it leads to. Operations consult it; nothing else decides
// whether a move is allowed. `sell` is taken by orders when sold units reach the quantity.
import { errors } from '../../errors.js';

export const LISTING_STATUSES = ['draft', 'published', 'sold', 'expired', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export type ListingOperation = 'update' | 'publish' | 'unpublish' | 'remove' | 'expire' | 'sell';

export const LISTING_TRANSITIONS: Record<ListingOperation, Partial<Record<ListingStatus, ListingStatus>>> = {
  update: { draft: 'draft', published: 'published', expired: 'expired' },
  publish: { draft: 'published', expired: 'published' },
  unpublish: { published: 'draft' },
  remove: { draft: 'removed', published: 'removed', sold: 'removed', expired: 'removed' },
  expire: { published: 'expired' },
  sell: { published: 'sold' },
};

/** How an operation reads in "The listing is removed; it cannot be published." */
const PHRASE: Record<ListingOperation, string> = {
  update: 'be updated',
  publish: 'be published',
  unpublish: 'be unpublished',
  remove: 'be removed',
  expire: 'expire',
  sell: 'be sold',
};

/** The state `operation` leads to from `from`, or 409 invalid_state naming the current state. */
export function transition(from: ListingStatus, operation: ListingOperation): ListingStatus {
  const to = LISTING_TRANSITIONS[operation][from];
  if (to === undefined) throw errors.invalidState('listing', from, PHRASE[operation]);
  return to;
}

export function canTransition(from: ListingStatus, operation: ListingOperation): boolean {
  return LISTING_TRANSITIONS[operation][from] !== undefined;
}
