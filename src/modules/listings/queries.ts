// Every SQL statement of the listings module. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { ListingStatus } from './status.js';

const COLUMNS = `id, seller_id, category_id, title, description, price_amount, currency, quantity, quantity_reserved,
  quantity_sold, status, attributes, metadata, published_at, expires_at, removed_reason, created_at, updated_at,
  unit_type, seats, slot_minutes`;
/** The columns a ListingRow is read with, for search's statements (search/queries.ts). */
export const LISTING_COLUMNS = COLUMNS;

/** The fields a listing is written with, on create and on every change. */
export interface ListingValues {
  category_id: string | null;
  title: string;
  description: string | null;
  price_amount: number;
  currency: string;
  quantity: number;
  attributes: Record<string, string>;
  metadata: Record<string, string>;
  expires_at: Date | null;
  /** How many bookings may overlap (day and time listings; 1 for an item listing). */
  seats: number;
  /** The length of a time listing's slot; null for the others. */
  slot_minutes: number | null;
}

/** What a listing sells: counted units (item), nights (day) or slots of time (time). Fixed at creation. */
export type UnitType = 'item' | 'day' | 'time';

export interface ListingRow extends ListingValues {
  id: string;
  unit_type: UnitType;
  seller_id: string;
  quantity_reserved: number;
  quantity_sold: number;
  status: ListingStatus;
  published_at: Date | null;
  removed_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertListing(
  tx: Tx,
  scope: Scope,
  listing: ListingValues & { id: string; seller_id: string; unit_type: UnitType; now: Date },
): Promise<ListingRow> {
  const rows = await tx.query<ListingRow>(
    `INSERT INTO listings (marketplace_id, mode, id, seller_id, category_id, title, description, price_amount, currency,
                           quantity, status, attributes, metadata, expires_at, created_at, updated_at, unit_type, seats, slot_minutes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'draft', $11, $12, $13, $14, $14, $15, $16, $17)
     RETURNING ${COLUMNS}`,
    [
      scope.marketplaceId,
      scope.mode,
      listing.id,
      listing.seller_id,
      listing.category_id,
      listing.title,
      listing.description,
      listing.price_amount,
      listing.currency,
      listing.quantity,
      JSON.stringify(listing.attributes),
      JSON.stringify(listing.metadata),
      listing.expires_at,
      listing.now,
      listing.unit_type,
      listing.seats,
      listing.slot_minutes,
    ],
  );
  return rows[0]!;
}

export async function selectListing(q: Queryable, scope: Scope, id: string): Promise<ListingRow | null> {
  const rows = await q.query<ListingRow>(`SELECT ${COLUMNS} FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockListing(tx: Tx, scope: Scope, id: string): Promise<ListingRow | null> {
  const rows = await tx.query<ListingRow>(`SELECT ${COLUMNS} FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockListingShared(tx: Tx, scope: Scope, id: string): Promise<ListingRow | null> {
  const rows = await tx.query<ListingRow>(`SELECT ${COLUMNS} FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR SHARE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/** The seller of a listing, read without a lock so the caller can lock the seller first. */
export async function selectListingSellerId(q: Queryable, scope: Scope, id: string): Promise<string | null> {
  const rows = await q.query<{ seller_id: string }>(
    'SELECT seller_id FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = $3',
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0]?.seller_id ?? null;
}

export interface ListingFilter {
  seller?: string;
  category?: string;
  status?: ListingStatus;
  /** Title starts with, case-insensitively. */
  title?: string;
  /** Publishable keys see published listings only. */
  publishedOnly: boolean;
}

/** A page of listings, newest first, limit + 1 rows so the caller can tell has_more. */
export async function selectListings(q: Queryable, scope: Scope, filter: ListingFilter, page: PageRequest): Promise<ListingRow[]> {
  // A publishable key's view is the published listings; a filter can narrow it, never widen it.
  if (filter.publishedOnly && filter.status !== undefined && filter.status !== 'published') return [];
  const status = filter.publishedOnly ? 'published' : filter.status;
  return selectPage<ListingRow>(q, {
    sql: `SELECT ${COLUMNS} FROM listings WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { seller_id: filter.seller, category_id: filter.category, status },
    startsWith: { title: filter.title },
    page,
  });
}

export async function updateListingValues(
  tx: Tx,
  scope: Scope,
  id: string,
  values: ListingValues,
  now: Date,
): Promise<ListingRow> {
  const rows = await tx.query<ListingRow>(
    `UPDATE listings SET category_id = $4, title = $5, description = $6, price_amount = $7, currency = $8, quantity = $9,
                         attributes = $10, metadata = $11, expires_at = $12, updated_at = $13, seats = $14, slot_minutes = $15
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3
      RETURNING ${COLUMNS}`,
    [
      scope.marketplaceId,
      scope.mode,
      id,
      values.category_id,
      values.title,
      values.description,
      values.price_amount,
      values.currency,
      values.quantity,
      JSON.stringify(values.attributes),
      JSON.stringify(values.metadata),
      values.expires_at,
      now,
      values.seats,
      values.slot_minutes,
    ],
  );
  return rows[0]!;
}

/** Moves a listing to a new status; published_at and removed_reason change only when given. */
export async function updateListingStatus(
  tx: Tx,
  scope: Scope,
  id: string,
  status: ListingStatus,
  now: Date,
  also: { published_at?: Date; removed_reason?: string } = {},
): Promise<ListingRow> {
  const rows = await tx.query<ListingRow>(
    `UPDATE listings SET status = $4, updated_at = $5,
                         published_at = COALESCE($6, published_at), removed_reason = COALESCE($7, removed_reason)
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3
      RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, status, now, also.published_at ?? null, also.removed_reason ?? null],
  );
  return rows[0]!;
}

/** Moves every listing of a seller in one of `from` to `to` (the remove row); returns the moved rows. */
export async function updateListingsOfSellerRemoved(
  tx: Tx,
  scope: Scope,
  sellerId: string,
  from: readonly ListingStatus[],
  to: ListingStatus,
  reason: string,
  now: Date,
): Promise<ListingRow[]> {
  return tx.query<ListingRow>(
    `UPDATE listings SET status = $7, removed_reason = $4, updated_at = $5
      WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 AND status = ANY($6::text[])
      RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, sellerId, reason, now, from, to],
  );
}

// ---- units, for orders (operations.ts: unitsReservation, returnUnits, sellUnits) ----

/** A statement for a caller to send as it chooses (one that must go with its transaction's COMMIT). */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Reserves units of a published listing in one conditional statement: the condition is checked on
 * the row it locked, so no two orders can take the same unit. The flow that places an order
 * (src/flows/place-order.ts) sends it as its transaction's last statement, with its COMMIT
 * (Tx.queryThenCommit; docs/performance.md R4): the listing's row is locked from this statement to
 * the COMMIT only, with no round trip between.
 * When the listing is not published or has fewer units left it raises the refusal
 * 'units_unavailable' (migrations/0014_refusals.sql), which rolls the transaction back.
 */
export function reserveUnitsStatement(scope: Scope, id: string, quantity: number): Statement {
  return {
    sql: `WITH r AS (
       UPDATE listings SET quantity_reserved = quantity_reserved + $4
        WHERE marketplace_id = $1 AND mode = $2 AND id = $3 AND status = 'published'
          AND quantity - quantity_reserved - quantity_sold >= $4
        RETURNING 1)
     SELECT CASE WHEN EXISTS (SELECT 1 FROM r) THEN true ELSE raise_refusal('units_unavailable') END AS reserved`,
    params: [scope.marketplaceId, scope.mode, id, quantity],
  };
}

/** What a checkout's listing refused: missing, not published, or short of units (its units left). */
export interface ShortListingRow {
  id: string;
  status: ListingRow['status'] | null;
  available: number;
}

/**
 * Reserves units of several listings in one statement, all or nothing (a checkout's). The
 * listings' rows are locked first, in id order, whatever the order asked: two checkouts sharing
 * listings wait for each other in one order and never deadlock. FOR NO KEY UPDATE (the lock the
 * UPDATE itself takes) rather than FOR UPDATE, which would wait for the key-share locks that new
 * orders' foreign keys hold on their listing, and deadlock two checkouts that both wrote orders.
 * When a listing is missing, not published or short, nothing is updated and the first such
 * listing (in the order asked) is answered; else null. `ids` are distinct.
 */
export async function updateListingsReserve(tx: Tx, scope: Scope, ids: readonly string[], quantities: readonly number[]): Promise<ShortListingRow | null> {
  const rows = await tx.query<{ id: string | null; status: ListingRow['status'] | null; available: number | string | null; reserved: number | string }>(
    `WITH wanted AS MATERIALIZED (
       SELECT w.id, w.quantity, w.n FROM unnest($3::text[], $4::integer[]) WITH ORDINALITY AS w(id, quantity, n)),
     locked AS MATERIALIZED (
       SELECT l.id, l.status, l.quantity - l.quantity_reserved - l.quantity_sold AS available
         FROM listings l
        WHERE l.marketplace_id = $1 AND l.mode = $2 AND l.id = ANY($3::text[])
        ORDER BY l.id
        FOR NO KEY UPDATE),
     short AS MATERIALIZED (
       SELECT w.id, k.status, COALESCE(k.available, 0) AS available
         FROM wanted w LEFT JOIN locked k ON k.id = w.id
        WHERE k.id IS NULL OR k.status <> 'published' OR k.available < w.quantity
        ORDER BY w.n LIMIT 1),
     reserved AS (
       UPDATE listings l SET quantity_reserved = l.quantity_reserved + w.quantity
         FROM wanted w
        WHERE l.marketplace_id = $1 AND l.mode = $2 AND l.id = w.id AND NOT EXISTS (SELECT 1 FROM short)
        RETURNING l.id)
     SELECT s.id, s.status, s.available, (SELECT count(*) FROM reserved) AS reserved
       FROM (SELECT 1) AS one LEFT JOIN short s ON true`,
    [scope.marketplaceId, scope.mode, ids, quantities],
  );
  const row = rows[0]!;
  if (row.id === null) return null;
  return { id: row.id, status: row.status, available: Number(row.available) };
}

/** Gives reserved units back to the listing. */
export async function updateListingUnreserve(tx: Tx, scope: Scope, id: string, quantity: number): Promise<void> {
  await tx.query(
    `UPDATE listings SET quantity_reserved = quantity_reserved - $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id, quantity],
  );
}

/** Moves reserved units to sold; answers the listing after the change. */
export async function updateListingSell(tx: Tx, scope: Scope, id: string, quantity: number): Promise<ListingRow> {
  const rows = await tx.query<ListingRow>(
    `UPDATE listings SET quantity_reserved = quantity_reserved - $4, quantity_sold = quantity_sold + $4
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3
      RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, quantity],
  );
  return rows[0]!;
}

/** What an order reads of a listing before it reserves units: no text, attributes or metadata. */
export async function selectListingForOrder(
  q: Queryable,
  scope: Scope,
  id: string,
): Promise<Pick<ListingRow, 'id' | 'seller_id' | 'category_id' | 'status' | 'price_amount' | 'currency' | 'quantity' | 'quantity_reserved' | 'quantity_sold'> | null> {
  const rows = await q.query<Pick<ListingRow, 'id' | 'seller_id' | 'category_id' | 'status' | 'price_amount' | 'currency' | 'quantity' | 'quantity_reserved' | 'quantity_sold'>>(
    `SELECT id, seller_id, category_id, status, price_amount, currency, quantity, quantity_reserved, quantity_sold
       FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

/** The listings of these ids, in one statement (expand[]); an id not found is absent. */
export function selectListingsByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<ListingRow[]> {
  return q.query<ListingRow>(`SELECT ${COLUMNS} FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}

/** The category of each listing named, null when it has none (one statement for a batch; reports). */
export async function selectListingCategories(q: Queryable, scope: Scope, listingIds: readonly string[]): Promise<Map<string, string | null>> {
  if (listingIds.length === 0) return new Map();
  const rows = await q.query<{ id: string; category_id: string | null }>(
    'SELECT id, category_id FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3::text[])',
    [scope.marketplaceId, scope.mode, [...listingIds]],
  );
  return new Map(rows.map((row) => [row.id, row.category_id]));
}

/** Each listing's title and seller (pages that name what is bought: the simulated checkout); one statement. */
export async function selectListingTitles(q: Queryable, scope: Scope, listingIds: readonly string[]): Promise<Map<string, { title: string; sellerId: string }>> {
  if (listingIds.length === 0) return new Map();
  const rows = await q.query<{ id: string; title: string; seller_id: string }>(
    'SELECT id, title, seller_id FROM listings WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3::text[])',
    [scope.marketplaceId, scope.mode, [...listingIds]],
  );
  return new Map(rows.map((row) => [row.id, { title: row.title, sellerId: row.seller_id }]));
}
