// Every SQL statement of the reputation module. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';

export type ReputationKind = 'review' | 'order_completed' | 'dispute_lost';

export interface ReputationEventRow {
  id: string;
  subject_id: string;
  kind: ReputationKind;
  order_id: string;
  review_id: string | null;
  rating: number | null;
  voided: boolean;
  created_at: Date;
}

const COLUMNS = 'id, subject_id, kind, order_id, review_id, rating, voided, created_at';

export async function insertReputationEvent(tx: Tx, scope: Scope, row: Omit<ReputationEventRow, 'voided'>): Promise<ReputationEventRow> {
  const rows = await tx.query<ReputationEventRow>(
    `INSERT INTO reputation_events (marketplace_id, mode, id, subject_id, kind, order_id, review_id, rating, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, row.id, row.subject_id, row.kind, row.order_id, row.review_id, row.rating, row.created_at],
  );
  return rows[0]!;
}

/** Voids the event that counts a review; answers it, or null when the review was never counted. */
export async function updateReputationEventOfReviewVoided(tx: Tx, scope: Scope, reviewId: string): Promise<ReputationEventRow | null> {
  const rows = await tx.query<ReputationEventRow>(
    `UPDATE reputation_events SET voided = true
      WHERE marketplace_id = $1 AND mode = $2 AND review_id = $3 AND NOT voided RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, reviewId],
  );
  return rows[0] ?? null;
}

export function selectReputationEvents(q: Queryable, scope: Scope, subjectId: string, page: PageRequest): Promise<ReputationEventRow[]> {
  return selectPage<ReputationEventRow>(q, {
    sql: `SELECT ${COLUMNS} FROM reputation_events WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { subject_id: subjectId },
    page,
  });
}

export interface ReputationTotals {
  rating_sum: number | string | null;
  rating_count: number | string;
  completed_orders: number | string;
}

/** The counting events of a subject, voided ones left out. */
export async function selectReputationTotals(q: Queryable, scope: Scope, subjectId: string): Promise<ReputationTotals> {
  const rows = await q.query<ReputationTotals>(
    `SELECT sum(rating) FILTER (WHERE kind = 'review') AS rating_sum,
            count(*) FILTER (WHERE kind = 'review') AS rating_count,
            count(*) FILTER (WHERE kind = 'order_completed') AS completed_orders
       FROM reputation_events WHERE marketplace_id = $1 AND mode = $2 AND subject_id = $3 AND NOT voided`,
    [scope.marketplaceId, scope.mode, subjectId],
  );
  return rows[0]!;
}
