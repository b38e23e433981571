// The listing.expire timer: a published listing with expires_at has one at that time, any other
// listing none. Every change of status or expiry keeps it in step, in its own transaction.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { cancelTimer, scheduleTimer } from '../../workers/timers.js';
import type { ListingRow } from './queries.js';

export const LISTING_EXPIRE_TIMER = 'listing.expire';

/** A published listing with expires_at has its expiry timer at that time; otherwise none. */
export async function syncExpiryTimer(tx: Tx, scope: Scope, row: ListingRow): Promise<void> {
  if (row.status === 'published' && row.expires_at !== null) {
    await scheduleTimer(tx, scope, LISTING_EXPIRE_TIMER, row.id, row.expires_at);
  } else {
    await cancelExpiryTimer(tx, scope, row.id);
  }
}

export function cancelExpiryTimer(tx: Tx, scope: Scope, listingId: string): Promise<void> {
  return cancelTimer(tx, scope, LISTING_EXPIRE_TIMER, listingId);
}
