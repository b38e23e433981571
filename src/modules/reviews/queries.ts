// Every SQL statement of the reviews module. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';

export interface ReviewRow {
  id: string;
  order_id: string;
  author_role: 'buyer' | 'seller';
  author_id: string;
  subject_id: string;
  rating: number;
  body: string | null;
  visible: boolean;
  removed: boolean;
  removed_reason: string | null;
  created_at: Date;
}

const COLUMNS = 'id, order_id, author_role, author_id, subject_id, rating, body, visible, removed, removed_reason, created_at';

export async function insertReview(tx: Tx, scope: Scope, row: Omit<ReviewRow, 'visible' | 'removed' | 'removed_reason'>): Promise<ReviewRow> {
  const rows = await tx.query<ReviewRow>(
    `INSERT INTO reviews (marketplace_id, mode, id, order_id, author_role, author_id, subject_id, rating, body, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, row.id, row.order_id, row.author_role, row.author_id, row.subject_id, row.rating, row.body, row.created_at],
  );
  return rows[0]!;
}

export function selectReviewsOfOrder(q: Queryable, scope: Scope, orderId: string): Promise<ReviewRow[]> {
  return q.query<ReviewRow>(`SELECT ${COLUMNS} FROM reviews WHERE marketplace_id = $1 AND mode = $2 AND order_id = $3 ORDER BY id`, [
    scope.marketplaceId,
    scope.mode,
    orderId,
  ]);
}

/** Makes the order's hidden reviews visible; answers them. */
export function updateReviewsOfOrderVisible(tx: Tx, scope: Scope, orderId: string): Promise<ReviewRow[]> {
  return tx.query<ReviewRow>(
    `UPDATE reviews SET visible = true WHERE marketplace_id = $1 AND mode = $2 AND order_id = $3 AND NOT visible RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, orderId],
  );
}

export async function selectReview(q: Queryable, scope: Scope, id: string): Promise<ReviewRow | null> {
  const rows = await q.query<ReviewRow>(`SELECT ${COLUMNS} FROM reviews WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockReviewShared(tx: Tx, scope: Scope, id: string): Promise<ReviewRow | null> {
  const rows = await tx.query<ReviewRow>(`SELECT ${COLUMNS} FROM reviews WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR SHARE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockReview(tx: Tx, scope: Scope, id: string): Promise<ReviewRow | null> {
  const rows = await tx.query<ReviewRow>(`SELECT ${COLUMNS} FROM reviews WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/** Visible reviews about a party that were not removed, newest first. */
export function selectVisibleReviews(q: Queryable, scope: Scope, subjectId: string, page: PageRequest): Promise<ReviewRow[]> {
  return selectPage<ReviewRow>(q, {
    sql: `SELECT ${COLUMNS} FROM reviews WHERE marketplace_id = $1 AND mode = $2 AND visible AND NOT removed`,
    params: [scope.marketplaceId, scope.mode],
    equals: { subject_id: subjectId },
    page,
  });
}

export async function updateReviewRemoved(tx: Tx, scope: Scope, id: string, reason: string): Promise<ReviewRow> {
  const rows = await tx.query<ReviewRow>(
    `UPDATE reviews SET removed = true, removed_reason = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, reason],
  );
  return rows[0]!;
}

/** Erasure: the text of every review the party wrote; answers the reviews' ids. */
export async function updateReviewsOfAuthorErased(tx: Tx, scope: Scope, authorId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE reviews SET body = NULL WHERE marketplace_id = $1 AND mode = $2 AND author_id = $3 RETURNING id`,
    [scope.marketplaceId, scope.mode, authorId],
  );
  return rows.map((row) => row.id);
}
