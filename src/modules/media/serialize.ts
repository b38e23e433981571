// Media row → the API object (the Media schema). `url` is a signed link made for this answer (the
// same link all through one hour); null while pending, and in the events of a deleted media.
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../db/db.js';
import { clockOffsetMs, type Scope } from '../../scope.js';
import type { MediaFile, Moment, SignedLink, StorageDriver } from '../../contracts/storage.js';
import type { MediaRow } from './queries.js';
import type { Media } from './schemas.js';

export function serializeMedia(row: MediaRow, link: SignedLink | null): Media {
  return {
    object: 'media',
    id: row.id,
    listing: row.listing_id,
    status: row.status,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    position: row.position,
    url: link?.url ?? null,
    url_expires_at: link?.expiresAt.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

export function mediaFile(scope: Scope, row: MediaRow): MediaFile {
  return { scope, mediaId: row.id, key: row.storage_key, contentType: row.content_type, sizeBytes: row.size_bytes };
}

/** The moment signed links are made at: the mode's clock and real time. */
export async function momentOf(q: Queryable, clock: Clock, scope: Scope): Promise<Moment> {
  // One reading of the clock for both, so they differ by exactly the mode's offset.
  const offsetMs = scope.mode === 'live' ? 0 : await clockOffsetMs(q, scope);
  const realMs = clock.nowMs();
  return { modeNow: new Date(realMs + offsetMs), realNow: new Date(realMs) };
}

/** The API objects of some media rows, with links to the ready ones' files. */
export async function mediaObjects(storage: StorageDriver, scope: Scope, rows: readonly MediaRow[], moment: Moment): Promise<Media[]> {
  return Promise.all(
    rows.map(async (row) => serializeMedia(row, row.status === 'ready' ? await storage.downloadLink(mediaFile(scope, row), moment) : null)),
  );
}
