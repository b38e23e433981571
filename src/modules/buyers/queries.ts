// Every SQL statement of the buyers module. Each one names marketplace_id and mode.
import type { Queryable } from '../../db/db.js';
import { selectPage } from '../../db/page-query.js';
import type { PageRequest } from '../../http/pagination.js';
import type { Scope } from '../../scope.js';
import type { PartyFields } from '../parties/schemas.js';

export interface BuyerRow extends PartyFields {
  id: string;
  erased_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, external_id, name, email, metadata, erased_at, created_at, updated_at';

export async function findBuyer(q: Queryable, scope: Scope, id: string, lock = false): Promise<BuyerRow | null> {
  const rows = await q.query<BuyerRow>(
    `SELECT ${COLUMNS} FROM buyers WHERE marketplace_id = $1 AND mode = $2 AND id = $3${lock ? ' FOR UPDATE' : ''}`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export function listBuyers(q: Queryable, scope: Scope, page: PageRequest, filter: { externalId?: string }): Promise<BuyerRow[]> {
  return selectPage<BuyerRow>(q, { select: `SELECT ${COLUMNS} FROM buyers`, scope, page, equals: { external_id: filter.externalId } });
}

export async function insertBuyer(q: Queryable, scope: Scope, id: string, fields: PartyFields, now: Date): Promise<BuyerRow> {
  const rows = await q.query<BuyerRow>(
    `INSERT INTO buyers (marketplace_id, mode, id, external_id, name, email, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, fields.external_id, fields.name, fields.email, JSON.stringify(fields.metadata), now],
  );
  return rows[0]!;
}

export async function updateBuyerParty(q: Queryable, scope: Scope, id: string, fields: PartyFields, now: Date): Promise<BuyerRow> {
  const rows = await q.query<BuyerRow>(
    `UPDATE buyers SET external_id = $4, name = $5, email = $6, metadata = $7, updated_at = $8
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, fields.external_id, fields.name, fields.email, JSON.stringify(fields.metadata), now],
  );
  return rows[0]!;
}

export async function eraseBuyerRow(q: Queryable, scope: Scope, id: string, now: Date): Promise<BuyerRow> {
  const rows = await q.query<BuyerRow>(
    `UPDATE buyers SET external_id = NULL, name = NULL, email = NULL, metadata = '{}', erased_at = $4, updated_at = $4
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, now],
  );
  return rows[0]!;
}
