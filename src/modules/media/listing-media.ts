// What listings read and do of their media: the ready media of listings for their `media` array,
// and the deletion of a removed listing's media.
import type { Clock } from '../../clock.js';
import type { StorageDriver } from '../../contracts/storage.js';
import type { Queryable, Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { deleteMediaOfListingRows, selectReadyMediaOfListings } from './queries.js';
import { removeMediaRows } from './removal.js';
import type { Media } from './schemas.js';
import { mediaObjects, momentOf } from './serialize.js';

/** Each listing's ready media, by position then age; a listing without any is absent. */
export async function readyMediaOfListings(
  q: Queryable,
  storage: StorageDriver,
  clock: Clock,
  scope: Scope,
  listingIds: readonly string[],
): Promise<Map<string, Media[]>> {
  const byListing = new Map<string, Media[]>();
  if (listingIds.length === 0) return byListing;
  const rows = await selectReadyMediaOfListings(q, scope, listingIds);
  if (rows.length === 0) return byListing;
  const objects = await mediaObjects(storage, scope, rows, await momentOf(q, clock, scope));
  for (const media of objects) {
    const list = byListing.get(media.listing) ?? [];
    list.push(media);
    byListing.set(media.listing, list);
  }
  return byListing;
}

/** Inside the removal of a listing: its media go, and their files after commit (a job). */
export async function deleteMediaOfListing(tx: Tx, scope: Scope, listingId: string, now: Date): Promise<void> {
  await removeMediaRows(tx, scope, await deleteMediaOfListingRows(tx, scope, listingId), now);
}
