// The listing state machine as one table (docs/architecture.md, "State machines"): for each
// operation, the states it may start from, who takes it, the state it leads to, its events and
// the expiry timer it sets or cancels. Operations, the expiry timer, seller erasure and the tests
// read it; nothing else decides whether a move is allowed. `sell` is taken by orders when sold
// units reach the quantity, by whoever completes the order (the buyer confirming, the confirm
// timer, or the platform deciding a dispute for the seller).
import { defineMachine } from '../../domain/state-machine.js';

export const LISTING_STATUSES = ['draft', 'published', 'sold', 'expired', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** A published listing with expires_at has this timer at that time. */
export const LISTING_EXPIRE_TIMER = 'listing.expire';

export const LISTING_MACHINE = defineMachine({
  subject: 'listing',
  states: LISTING_STATUSES,
  initial: ['draft'],
  operations: {
    update: 'be updated',
    publish: 'be published',
    unpublish: 'be unpublished',
    remove: 'be removed',
    expire: 'expire',
    sell: 'be sold',
  },
  timers: { [LISTING_EXPIRE_TIMER]: 'expire' },
  rows: [
    { from: ['draft'], operation: 'update', who: ['platform'], to: 'draft', emits: ['listing.updated'] },
    { from: ['published'], operation: 'update', who: ['platform'], to: 'published', emits: ['listing.updated'], sets: [LISTING_EXPIRE_TIMER] },
    { from: ['expired'], operation: 'update', who: ['platform'], to: 'expired', emits: ['listing.updated'] },
    { from: ['draft', 'expired'], operation: 'publish', who: ['platform'], to: 'published', emits: ['listing.published'], sets: [LISTING_EXPIRE_TIMER] },
    { from: ['published'], operation: 'unpublish', who: ['platform'], to: 'draft', emits: ['listing.unpublished'], cancels: [LISTING_EXPIRE_TIMER] },
    {
      from: ['draft', 'published', 'sold', 'expired'],
      operation: 'remove',
      who: ['platform'],
      to: 'removed',
      emits: ['listing.removed'],
      cancels: [LISTING_EXPIRE_TIMER],
    },
    { from: ['published'], operation: 'expire', who: ['timer'], to: 'expired', emits: ['listing.expired'] },
    { from: ['published'], operation: 'sell', who: ['buyer', 'timer', 'platform'], to: 'sold', emits: ['listing.sold'], cancels: [LISTING_EXPIRE_TIMER] },
  ],
});

export type ListingOperation = keyof typeof LISTING_MACHINE.operations;
