// Every SQL statement of the checkouts module. Each one names marketplace_id and mode. Its orders
// are the orders module's (read and written through its index.ts).
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { CheckoutStatus } from './status.js';

export interface CheckoutRow {
  id: string;
  buyer_id: string;
  status: CheckoutStatus;
  currency: string;
  subtotal: number | string;
  fee_amount: number | string;
  total: number | string;
  order_ids: string[];
  payment_id: string | null;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: Date | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, buyer_id, status, currency, subtotal, fee_amount, total, order_ids, payment_id, success_url, cancel_url,
  expires_at, metadata, created_at, updated_at`;

export type NewCheckout = Omit<CheckoutRow, 'payment_id' | 'updated_at'>;

export async function insertCheckout(tx: Tx, scope: Scope, checkout: NewCheckout): Promise<CheckoutRow> {
  const rows = await tx.query<CheckoutRow>(
    `INSERT INTO checkouts (marketplace_id, mode, id, buyer_id, status, currency, subtotal, fee_amount, total, order_ids,
                            success_url, cancel_url, expires_at, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
     RETURNING ${COLUMNS}`,
    [
      scope.marketplaceId,
      scope.mode,
      checkout.id,
      checkout.buyer_id,
      checkout.status,
      checkout.currency,
      checkout.subtotal,
      checkout.fee_amount,
      checkout.total,
      checkout.order_ids,
      checkout.success_url,
      checkout.cancel_url,
      checkout.expires_at,
      JSON.stringify(checkout.metadata),
      checkout.created_at,
    ],
  );
  return rows[0]!;
}

/** The charge made for a new checkout (payments on), in its creation's transaction. */
export async function updateCheckoutPayment(tx: Tx, scope: Scope, id: string, paymentId: string): Promise<CheckoutRow> {
  const rows = await tx.query<CheckoutRow>(
    `UPDATE checkouts SET payment_id = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, paymentId],
  );
  return rows[0]!;
}

export async function updateCheckoutStatus(tx: Tx, scope: Scope, id: string, status: CheckoutStatus, now: Date): Promise<CheckoutRow> {
  const rows = await tx.query<CheckoutRow>(
    `UPDATE checkouts SET status = $4, updated_at = $5 WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, status, now],
  );
  return rows[0]!;
}

export async function selectCheckout(q: Queryable, scope: Scope, id: string): Promise<CheckoutRow | null> {
  const rows = await q.query<CheckoutRow>(`SELECT ${COLUMNS} FROM checkouts WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockCheckout(tx: Tx, scope: Scope, id: string): Promise<CheckoutRow | null> {
  const rows = await tx.query<CheckoutRow>(`SELECT ${COLUMNS} FROM checkouts WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export function selectCheckouts(q: Queryable, scope: Scope, filter: { buyer?: string; status?: CheckoutStatus }, page: PageRequest): Promise<CheckoutRow[]> {
  return selectPage<CheckoutRow>(q, {
    sql: `SELECT ${COLUMNS} FROM checkouts WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { buyer_id: filter.buyer, status: filter.status },
    page,
  });
}

/** The checkouts of these ids, in one statement (expand[]); an id not found is absent. */
export function selectCheckoutsByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<CheckoutRow[]> {
  return q.query<CheckoutRow>(`SELECT ${COLUMNS} FROM checkouts WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}
