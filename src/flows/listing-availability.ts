// A listing's availability and time slots (PUT and GET /v1/listings/{id}/availability, GET
// /v1/listings/{id}/timeslots): the listing found (listings; 404 when there is none, or to a
// publishable key when it is not published), then the bookings module sets or reads its
// availability, or computes its slots in one statement. Setting it locks the listing first, so it
// waits for a change of the listing's seats and a booking waits for it (the availability row).
import type { OperationContext } from '../contracts/context.js';
import type { ListEnvelope } from '../db/paging.js';
import { errors } from '../errors.js';
import { getAvailability, listTimeslots, putAvailability, type Availability, type PutAvailabilityBody, type Timeslot, type TimeslotsQuery } from '../modules/bookings/index.js';
import { findListing, requireListing } from '../modules/listings/index.js';
import { modeNow } from '../scope.js';

/** Refusals: 404 unknown listing; 409 invalid_state (an item listing, or a removed one); 400 naming the field. */
export function setListingAvailability(ctx: OperationContext, listingId: string, body: PutAvailabilityBody): Promise<Availability> {
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    const listing = await requireListing(tx, ctx.scope, listingId);
    if (listing.status === 'removed') throw errors.invalidState('listing', listing.status, 'take an availability');
    return putAvailability(tx, ctx.scope, listing, body, now);
  });
}

async function visibleListing(ctx: OperationContext, listingId: string) {
  const listing = await findListing(ctx.db, ctx.scope, listingId);
  // To a publishable key a listing that is not published does not exist.
  if (!listing || (ctx.viewer === 'publishable' && listing.status !== 'published')) throw errors.missing('listing', listingId);
  return listing;
}

export async function readListingAvailability(ctx: OperationContext, listingId: string): Promise<Availability> {
  return getAvailability(ctx.db, ctx.scope, await visibleListing(ctx, listingId));
}

export async function listListingTimeslots(ctx: OperationContext, listingId: string, query: TimeslotsQuery): Promise<ListEnvelope<Timeslot>> {
  const listing = await visibleListing(ctx, listingId);
  const now = await modeNow(ctx.db, ctx.clock, ctx.scope);
  return listTimeslots(ctx.db, ctx.scope, listing, query, now);
}
