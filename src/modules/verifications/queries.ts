// Every SQL statement of the verifications module. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { VerificationStatus } from './schemas.js';

export interface VerificationRow {
  id: string;
  seller_id: string;
  status: VerificationStatus;
  reason: string | null;
  notes: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  decided_at: Date | null;
}

const COLUMNS = 'id, seller_id, status, reason, notes, metadata, created_at, decided_at';

export async function selectVerification(q: Queryable, scope: Scope, id: string): Promise<VerificationRow | null> {
  const rows = await q.query<VerificationRow>(`SELECT ${COLUMNS} FROM verifications WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockVerification(tx: Tx, scope: Scope, id: string): Promise<VerificationRow | null> {
  const rows = await tx.query<VerificationRow>(
    `SELECT ${COLUMNS} FROM verifications WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export function selectVerifications(
  q: Queryable,
  scope: Scope,
  page: PageRequest,
  filter: { seller?: string; status?: VerificationStatus },
): Promise<VerificationRow[]> {
  return selectPage<VerificationRow>(q, {
    sql: `SELECT ${COLUMNS} FROM verifications WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { seller_id: filter.seller, status: filter.status },
    page,
  });
}

export async function insertVerification(
  tx: Tx,
  scope: Scope,
  row: Pick<VerificationRow, 'id' | 'seller_id' | 'notes' | 'metadata' | 'created_at'>,
): Promise<VerificationRow> {
  const rows = await tx.query<VerificationRow>(
    `INSERT INTO verifications (marketplace_id, mode, id, seller_id, status, notes, metadata, created_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7) RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, row.id, row.seller_id, row.notes, JSON.stringify(row.metadata), row.created_at],
  );
  return rows[0]!;
}

export async function updateVerificationDecision(
  tx: Tx,
  scope: Scope,
  id: string,
  status: VerificationStatus,
  reason: string | null,
  now: Date,
): Promise<VerificationRow> {
  const rows = await tx.query<VerificationRow>(
    `UPDATE verifications SET status = $4, reason = $5, decided_at = $6
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, status, reason, now],
  );
  return rows[0]!;
}

/** Clears the free text of every verification of the seller (erasure); returns their ids. */
export async function updateVerificationsOfSellerErased(tx: Tx, scope: Scope, sellerId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE verifications SET notes = NULL, metadata = '{}', reason = NULL
      WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 RETURNING id`,
    [scope.marketplaceId, scope.mode, sellerId],
  );
  return rows.map((row) => row.id);
}
