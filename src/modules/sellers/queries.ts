// Every SQL statement of the sellers module (sellers and their storefronts). Each one names
// marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { PartyFields } from '../parties/index.js';
import type { PayoutsStatus, SellerStatus, VerificationState } from './schemas.js';

export interface StorefrontRow {
  id: string;
  seller_id: string;
  name: string;
  slug: string | null;
  description: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export interface SellerRow extends PartyFields {
  id: string;
  status: SellerStatus;
  suspended_reason: string | null;
  verification_status: VerificationState;
  verification_updated_at: Date | null;
  payouts_status: PayoutsStatus;
  processor_account: string | null;
  erased_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The storefront, as one jsonb object from the join (timestamps as text). */
  storefront: (Omit<StorefrontRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string }) | null;
}

const SELECT_SELLER = `
  SELECT s.id, s.external_id, s.name, s.email, s.status, s.suspended_reason, s.verification_status,
         s.verification_updated_at, s.payouts_status, s.processor_account, s.metadata, s.erased_at,
         s.created_at, s.updated_at,
         CASE WHEN st.id IS NULL THEN NULL ELSE jsonb_build_object(
           'id', st.id, 'seller_id', st.seller_id, 'name', st.name, 'slug', st.slug,
           'description', st.description, 'metadata', st.metadata,
           'created_at', to_char(st.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'updated_at', to_char(st.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END AS storefront
    FROM sellers s
    LEFT JOIN storefronts st ON st.marketplace_id = s.marketplace_id AND st.mode = s.mode AND st.seller_id = s.id`;

export async function selectSeller(q: Queryable, scope: Scope, id: string): Promise<SellerRow | null> {
  const rows = await q.query<SellerRow>(`${SELECT_SELLER} WHERE s.marketplace_id = $1 AND s.mode = $2 AND s.id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/** The seller, its row locked until the transaction ends (lock order: the seller first). */
export async function lockSeller(tx: Tx, scope: Scope, id: string): Promise<SellerRow | null> {
  const rows = await tx.query<SellerRow>(
    `${SELECT_SELLER} WHERE s.marketplace_id = $1 AND s.mode = $2 AND s.id = $3 FOR UPDATE OF s`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

/**
 * The seller, share-locked: what others decide on its state (publishing a listing) holds until
 * their transaction ends, and a suspension or erasure at the same time waits for them (or they for it).
 */
export async function lockSellerShared(tx: Tx, scope: Scope, id: string): Promise<SellerRow | null> {
  const rows = await tx.query<SellerRow>(
    `${SELECT_SELLER} WHERE s.marketplace_id = $1 AND s.mode = $2 AND s.id = $3 FOR SHARE OF s`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export function selectSellers(
  q: Queryable,
  scope: Scope,
  page: PageRequest,
  filter: { externalId?: string; status?: SellerStatus; name?: string; email?: string },
): Promise<SellerRow[]> {
  return selectPage<SellerRow>(q, {
    sql: `${SELECT_SELLER} WHERE s.marketplace_id = $1 AND s.mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { 's.external_id': filter.externalId, 's.status': filter.status, 'lower(s.email)': filter.email?.toLowerCase() },
    startsWith: { 's.name': filter.name },
    idColumn: 's.id',
    page,
  });
}

export async function insertSeller(tx: Tx, scope: Scope, id: string, fields: PartyFields, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO sellers (marketplace_id, mode, id, external_id, name, email, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [scope.marketplaceId, scope.mode, id, fields.external_id, fields.name, fields.email, JSON.stringify(fields.metadata), now],
  );
}

export async function updateSellerParty(tx: Tx, scope: Scope, id: string, fields: PartyFields, now: Date): Promise<void> {
  await tx.query(
    `UPDATE sellers SET external_id = $4, name = $5, email = $6, metadata = $7, updated_at = $8
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id, fields.external_id, fields.name, fields.email, JSON.stringify(fields.metadata), now],
  );
}

export async function updateSellerStatus(
  tx: Tx,
  scope: Scope,
  id: string,
  status: SellerStatus,
  reason: string | null,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE sellers SET status = $4, suspended_reason = $5, updated_at = $6
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id, status, reason, now],
  );
}

export async function updateSellerVerification(tx: Tx, scope: Scope, id: string, status: VerificationState, now: Date): Promise<void> {
  await tx.query(
    `UPDATE sellers SET verification_status = $4, verification_updated_at = $5, updated_at = $5
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id, status, now],
  );
}

export async function updateSellerPayouts(
  tx: Tx,
  scope: Scope,
  id: string,
  status: PayoutsStatus,
  processorAccount: string | null,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE sellers SET payouts_status = $4, processor_account = $5, updated_at = $6
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id, status, processorAccount, now],
  );
}

/**
 * Nulls the seller's personal data and its suspension reason and marks it erased; status,
 * verification and payouts stay.
 */
export async function updateSellerErased(tx: Tx, scope: Scope, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE sellers SET external_id = NULL, name = NULL, email = NULL, metadata = '{}', suspended_reason = NULL,
            erased_at = $4, updated_at = $4
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id, now],
  );
}

export interface StorefrontValues {
  name: string;
  slug: string | null;
  description: string | null;
  metadata: Record<string, string>;
}

/** Creates the seller's storefront or replaces its fields (the id and created_at stay). */
export async function upsertStorefront(
  tx: Tx,
  scope: Scope,
  sellerId: string,
  newId: string,
  values: StorefrontValues,
  now: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO storefronts (marketplace_id, mode, id, seller_id, name, slug, description, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     ON CONFLICT (marketplace_id, mode, seller_id) DO UPDATE
       SET name = EXCLUDED.name, slug = EXCLUDED.slug, description = EXCLUDED.description,
           metadata = EXCLUDED.metadata, updated_at = EXCLUDED.updated_at`,
    [scope.marketplaceId, scope.mode, newId, sellerId, values.name, values.slug, values.description, JSON.stringify(values.metadata), now],
  );
}

export async function updateSellerUpdatedAt(tx: Tx, scope: Scope, id: string, now: Date): Promise<void> {
  await tx.query('UPDATE sellers SET updated_at = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
    scope.marketplaceId,
    scope.mode,
    id,
    now,
  ]);
}

export async function deleteStorefront(tx: Tx, scope: Scope, sellerId: string): Promise<void> {
  await tx.query('DELETE FROM storefronts WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3', [
    scope.marketplaceId,
    scope.mode,
    sellerId,
  ]);
}

/** What a rule checked at one instant needs of a seller (an order: its status and external id), without the storefront join. */
/** The names of these sellers (null when a seller has none or was erased), for pages that show them; one statement. */
export async function selectSellerNames(q: Queryable, scope: Scope, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<{ id: string; name: string | null }>(
    'SELECT id, name FROM sellers WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3::text[])',
    [scope.marketplaceId, scope.mode, [...ids]],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function selectSellerStanding(q: Queryable, scope: Scope, id: string): Promise<Pick<SellerRow, 'id' | 'external_id' | 'status' | 'erased_at'> | null> {
  const rows = await q.query<Pick<SellerRow, 'id' | 'external_id' | 'status' | 'erased_at'>>(
    'SELECT id, external_id, status, erased_at FROM sellers WHERE marketplace_id = $1 AND mode = $2 AND id = $3',
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

/** The seller's payouts standing at the processor, without a lock: for payments' release and reversal calls. */
export async function selectSellerPayouts(q: Queryable, scope: Scope, id: string): Promise<Pick<SellerRow, 'payouts_status' | 'processor_account'> | null> {
  const rows = await q.query<Pick<SellerRow, 'payouts_status' | 'processor_account'>>(
    'SELECT payouts_status, processor_account FROM sellers WHERE marketplace_id = $1 AND mode = $2 AND id = $3',
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

/** The id of the seller whose processor account this is (a processor's account report names the account). */
export async function selectSellerIdByProcessorAccount(q: Queryable, scope: Scope, account: string): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM sellers WHERE marketplace_id = $1 AND mode = $2 AND processor_account = $3',
    [scope.marketplaceId, scope.mode, account],
  );
  return rows[0]?.id ?? null;
}

/** The sellers of these ids, in one statement (expand[]); an id not found is absent. */
export function selectSellersByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<SellerRow[]> {
  return q.query<SellerRow>(`${SELECT_SELLER} WHERE s.marketplace_id = $1 AND s.mode = $2 AND s.id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}
