// Every SQL statement of the media module. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { MediaContentType, MediaStatus } from './status.js';

const COLUMNS = `id, listing_id, seller_id, status, content_type, size_bytes, position, storage_key, upload_expires_at,
  upload_received_at, ready_at, created_at`;

export interface MediaRow {
  id: string;
  listing_id: string;
  seller_id: string;
  status: MediaStatus;
  content_type: MediaContentType;
  size_bytes: number;
  position: number;
  storage_key: string;
  upload_expires_at: Date;
  upload_received_at: Date | null;
  ready_at: Date | null;
  created_at: Date;
}

export async function insertMedia(
  tx: Tx,
  scope: Scope,
  media: Pick<MediaRow, 'id' | 'listing_id' | 'seller_id' | 'content_type' | 'size_bytes' | 'position' | 'storage_key' | 'upload_expires_at' | 'created_at'>,
): Promise<MediaRow> {
  const rows = await tx.query<MediaRow>(
    `INSERT INTO media (marketplace_id, mode, id, listing_id, seller_id, status, content_type, size_bytes, position, storage_key,
                        upload_expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $10, $11)
     RETURNING ${COLUMNS}`,
    [
      scope.marketplaceId,
      scope.mode,
      media.id,
      media.listing_id,
      media.seller_id,
      media.content_type,
      media.size_bytes,
      media.position,
      media.storage_key,
      media.upload_expires_at,
      media.created_at,
    ],
  );
  return rows[0]!;
}

export async function selectMedia(q: Queryable, scope: Scope, id: string): Promise<MediaRow | null> {
  const rows = await q.query<MediaRow>(`SELECT ${COLUMNS} FROM media WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockMedia(tx: Tx, scope: Scope, id: string): Promise<MediaRow | null> {
  const rows = await tx.query<MediaRow>(`SELECT ${COLUMNS} FROM media WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/** A page of a listing's media, pending included, newest first (limit + 1 rows). */
export function selectMediaOfListing(q: Queryable, scope: Scope, listingId: string, page: PageRequest): Promise<MediaRow[]> {
  return selectPage<MediaRow>(q, {
    sql: `SELECT ${COLUMNS} FROM media WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { listing_id: listingId },
    page,
  });
}

/** How many media a listing has, pending uploads included (read after the listing is locked). */
export async function countMediaOfListing(q: Queryable, scope: Scope, listingId: string): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM media WHERE marketplace_id = $1 AND mode = $2 AND listing_id = $3', [
    scope.marketplaceId,
    scope.mode,
    listingId,
  ]);
  return Number(rows[0]!.n);
}

/** The ready media of some listings, by position, then age. */
export function selectReadyMediaOfListings(q: Queryable, scope: Scope, listingIds: readonly string[]): Promise<MediaRow[]> {
  return q.query<MediaRow>(
    `SELECT ${COLUMNS} FROM media
      WHERE marketplace_id = $1 AND mode = $2 AND listing_id = ANY($3::text[]) AND status = 'ready'
      ORDER BY position, id`,
    [scope.marketplaceId, scope.mode, listingIds],
  );
}

/** Takes the single-use upload grant of a pending media; null when it is taken (or the media is ready). */
export async function updateMediaUploadReceived(tx: Tx, scope: Scope, id: string, now: Date): Promise<MediaRow | null> {
  const rows = await tx.query<MediaRow>(
    `UPDATE media SET upload_received_at = $4
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 AND status = 'pending' AND upload_received_at IS NULL
      RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, now],
  );
  return rows[0] ?? null;
}

/** Gives the upload grant back after an upload that did not arrive whole. */
export async function updateMediaUploadReleased(tx: Tx, scope: Scope, id: string): Promise<void> {
  await tx.query(`UPDATE media SET upload_received_at = NULL WHERE marketplace_id = $1 AND mode = $2 AND id = $3 AND status = 'pending'`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
}

export async function updateMediaStatus(tx: Tx, scope: Scope, id: string, status: MediaStatus, now: Date): Promise<MediaRow> {
  const rows = await tx.query<MediaRow>(
    `UPDATE media SET status = $4, ready_at = $5 WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, status, status === 'ready' ? now : null],
  );
  return rows[0]!;
}

export async function deleteMediaRow(tx: Tx, scope: Scope, id: string): Promise<MediaRow | null> {
  const rows = await tx.query<MediaRow>(`DELETE FROM media WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export function deleteMediaOfListingRows(tx: Tx, scope: Scope, listingId: string): Promise<MediaRow[]> {
  return tx.query<MediaRow>(
    `DELETE FROM media WHERE marketplace_id = $1 AND mode = $2 AND listing_id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, listingId],
  );
}

export function deleteMediaOfSellerRows(tx: Tx, scope: Scope, sellerId: string): Promise<MediaRow[]> {
  return tx.query<MediaRow>(
    `DELETE FROM media WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, sellerId],
  );
}
