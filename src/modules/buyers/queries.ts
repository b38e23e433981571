// Every SQL statement of the buyers module. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { PartyFields } from '../parties/index.js';

export interface BuyerRow extends PartyFields {
  id: string;
  erased_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, external_id, name, email, metadata, erased_at, created_at, updated_at';

export async function selectBuyer(q: Queryable, scope: Scope, id: string): Promise<BuyerRow | null> {
  const rows = await q.query<BuyerRow>(`SELECT ${COLUMNS} FROM buyers WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockBuyer(tx: Tx, scope: Scope, id: string): Promise<BuyerRow | null> {
  const rows = await tx.query<BuyerRow>(`SELECT ${COLUMNS} FROM buyers WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/** The buyer, share-locked: a change that depends on it (a flag it reports) and its erasure do not overlap. */
export async function lockBuyerShared(tx: Tx, scope: Scope, id: string): Promise<BuyerRow | null> {
  const rows = await tx.query<BuyerRow>(`SELECT ${COLUMNS} FROM buyers WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR SHARE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export function selectBuyers(q: Queryable, scope: Scope, page: PageRequest, filter: { externalId?: string; name?: string; email?: string }): Promise<BuyerRow[]> {
  return selectPage<BuyerRow>(q, {
    sql: `SELECT ${COLUMNS} FROM buyers WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { external_id: filter.externalId, 'lower(email)': filter.email?.toLowerCase() },
    startsWith: { name: filter.name },
    page,
  });
}

export async function insertBuyer(tx: Tx, scope: Scope, id: string, fields: PartyFields, now: Date): Promise<BuyerRow> {
  const rows = await tx.query<BuyerRow>(
    `INSERT INTO buyers (marketplace_id, mode, id, external_id, name, email, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, fields.external_id, fields.name, fields.email, JSON.stringify(fields.metadata), now],
  );
  return rows[0]!;
}

export async function updateBuyerParty(tx: Tx, scope: Scope, id: string, fields: PartyFields, now: Date): Promise<BuyerRow> {
  const rows = await tx.query<BuyerRow>(
    `UPDATE buyers SET external_id = $4, name = $5, email = $6, metadata = $7, updated_at = $8
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, fields.external_id, fields.name, fields.email, JSON.stringify(fields.metadata), now],
  );
  return rows[0]!;
}

/** Nulls the buyer's personal data and marks it erased. */
export async function updateBuyerErased(tx: Tx, scope: Scope, id: string, now: Date): Promise<BuyerRow> {
  const rows = await tx.query<BuyerRow>(
    `UPDATE buyers SET external_id = NULL, name = NULL, email = NULL, metadata = '{}', erased_at = $4, updated_at = $4
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, now],
  );
  return rows[0]!;
}

/** What a rule checked at one instant needs of a buyer (an order: external id, erasure). */
export async function selectBuyerStanding(q: Queryable, scope: Scope, id: string): Promise<Pick<BuyerRow, 'id' | 'external_id' | 'erased_at'> | null> {
  const rows = await q.query<Pick<BuyerRow, 'id' | 'external_id' | 'erased_at'>>(
    'SELECT id, external_id, erased_at FROM buyers WHERE marketplace_id = $1 AND mode = $2 AND id = $3',
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

/** The buyers of these ids, in one statement (expand[]); an id not found is absent. */
export function selectBuyersByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<BuyerRow[]> {
  return q.query<BuyerRow>(`SELECT ${COLUMNS} FROM buyers WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}
