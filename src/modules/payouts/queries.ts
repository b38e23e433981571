// Every SQL statement of the payouts module: seller_payout_schedules, payouts, payout_lines.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type CreatedRange, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { PayoutSchedule } from '../../contracts/settings.js';
import type { PayoutStatus } from './machine.js';

export async function selectSellerSchedule(q: Queryable, scope: Scope, sellerId: string): Promise<PayoutSchedule | null> {
  const rows = await q.query<{ schedule: PayoutSchedule }>('SELECT schedule FROM seller_payout_schedules WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3', [
    scope.marketplaceId,
    scope.mode,
    sellerId,
  ]);
  return rows[0]?.schedule ?? null;
}

/** The sellers' own schedules of many sellers at once (a payout run). */
export async function selectSellerSchedules(q: Queryable, scope: Scope, sellerIds: readonly string[]): Promise<Map<string, PayoutSchedule>> {
  if (sellerIds.length === 0) return new Map();
  const rows = await q.query<{ seller_id: string; schedule: PayoutSchedule }>(
    'SELECT seller_id, schedule FROM seller_payout_schedules WHERE marketplace_id = $1 AND mode = $2 AND seller_id = ANY($3::text[])',
    [scope.marketplaceId, scope.mode, sellerIds],
  );
  return new Map(rows.map((row) => [row.seller_id, row.schedule]));
}

export async function upsertSellerSchedule(tx: Tx, scope: Scope, sellerId: string, schedule: PayoutSchedule, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO seller_payout_schedules (marketplace_id, mode, seller_id, schedule, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (marketplace_id, mode, seller_id) DO UPDATE SET schedule = EXCLUDED.schedule, updated_at = EXCLUDED.updated_at`,
    [scope.marketplaceId, scope.mode, sellerId, JSON.stringify(schedule), now],
  );
}

export async function deleteSellerSchedule(tx: Tx, scope: Scope, sellerId: string): Promise<void> {
  await tx.query('DELETE FROM seller_payout_schedules WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3', [scope.marketplaceId, scope.mode, sellerId]);
}

export interface PayoutRow {
  id: string;
  seller_id: string;
  amount: number;
  currency: string;
  status: PayoutStatus;
  automatic: boolean;
  provider: string;
  idempotency_key: string;
  processor_reference: string | null;
  failure_message: string | null;
  period_start: Date;
  period_end: Date;
  created_at: Date;
  paid_at: Date | null;
  failed_at: Date | null;
  canceled_at: Date | null;
}

const COLUMNS = `id, seller_id, amount::bigint AS amount, currency, status, automatic, provider, idempotency_key, processor_reference, failure_message,
  period_start, period_end, created_at, paid_at, failed_at, canceled_at`;

const numeric = (row: PayoutRow): PayoutRow => ({ ...row, amount: Number(row.amount) });

export async function insertPayout(tx: Tx, scope: Scope, row: Omit<PayoutRow, 'processor_reference' | 'failure_message' | 'paid_at' | 'failed_at' | 'canceled_at'>): Promise<PayoutRow> {
  const rows = await tx.query<PayoutRow>(
    `INSERT INTO payouts (marketplace_id, mode, id, seller_id, amount, currency, status, automatic, provider, idempotency_key, period_start, period_end, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, row.id, row.seller_id, row.amount, row.currency, row.status, row.automatic, row.provider, row.idempotency_key, row.period_start, row.period_end, row.created_at],
  );
  return numeric(rows[0]!);
}

export async function selectPayout(q: Queryable, scope: Scope, id: string): Promise<PayoutRow | null> {
  const rows = await q.query<PayoutRow>(`SELECT ${COLUMNS} FROM payouts WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [scope.marketplaceId, scope.mode, id]);
  return rows[0] ? numeric(rows[0]) : null;
}

export async function lockPayout(tx: Tx, scope: Scope, id: string): Promise<PayoutRow | null> {
  const rows = await tx.query<PayoutRow>(`SELECT ${COLUMNS} FROM payouts WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [scope.marketplaceId, scope.mode, id]);
  return rows[0] ? numeric(rows[0]) : null;
}

export type PayoutChanges = Partial<Pick<PayoutRow, 'status' | 'processor_reference' | 'failure_message' | 'paid_at' | 'failed_at' | 'canceled_at'>>;

export async function updatePayout(tx: Tx, scope: Scope, id: string, changes: PayoutChanges): Promise<PayoutRow> {
  const entries = Object.entries(changes);
  const sets = entries.map(([column], i) => `${column} = $${i + 4}`);
  const rows = await tx.query<PayoutRow>(`UPDATE payouts SET ${sets.join(', ')} WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`, [
    scope.marketplaceId,
    scope.mode,
    id,
    ...entries.map(([, value]) => value),
  ]);
  return numeric(rows[0]!);
}

export interface PayoutFilters extends CreatedRange {
  seller?: string;
  status?: PayoutStatus;
}

/** A page of payouts, newest first: ?seller= walks payouts_seller_idx, ?status= payouts_status_idx. */
export async function selectPayoutPage(q: Queryable, scope: Scope, filters: PayoutFilters, page: PageRequest): Promise<PayoutRow[]> {
  const rows = await selectPage<PayoutRow>(q, {
    sql: `SELECT ${COLUMNS} FROM payouts WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { seller_id: filters.seller, status: filters.status },
    created: filters,
    page,
  });
  return rows.map(numeric);
}

export interface PayoutLineRow {
  payout_id: string;
  balance_transaction: string;
  type: string;
  ledger_type: string;
  amount: number;
  currency: string;
  source_id: string;
  payment_id: string | null;
  order_id: string | null;
  created_at: Date;
}

export async function insertPayoutLines(tx: Tx, scope: Scope, lines: readonly PayoutLineRow[]): Promise<void> {
  if (lines.length === 0) return;
  const column = <K extends keyof PayoutLineRow>(key: K) => lines.map((line) => line[key]);
  await tx.query(
    `INSERT INTO payout_lines (marketplace_id, mode, payout_id, balance_transaction, type, ledger_type, amount, currency, source_id, payment_id, order_id, created_at)
     SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::timestamptz[])`,
    [scope.marketplaceId, scope.mode, column('payout_id'), column('balance_transaction'), column('type'), column('ledger_type'), column('amount'), column('currency'),
      column('source_id'), column('payment_id'), column('order_id'), lines.map((line) => line.created_at.toISOString())],
  );
}

/** Which of these ledger lines a payout that is not failed or canceled already contains. */
export async function selectContainedLines(q: Queryable, scope: Scope, lineIds: readonly string[]): Promise<Set<string>> {
  if (lineIds.length === 0) return new Set();
  const rows = await q.query<{ balance_transaction: string }>(
    `SELECT l.balance_transaction FROM payout_lines l
       JOIN payouts p ON p.marketplace_id = l.marketplace_id AND p.mode = l.mode AND p.id = l.payout_id
      WHERE l.marketplace_id = $1 AND l.mode = $2 AND l.balance_transaction = ANY($3::text[]) AND p.status NOT IN ('failed', 'canceled')`,
    [scope.marketplaceId, scope.mode, lineIds],
  );
  return new Set(rows.map((row) => row.balance_transaction));
}

/** What a payout kept for its seller's debt: minus the sum of its own `recovery` lines (source the payout). */
export async function selectPayoutRecovered(q: Queryable, scope: Scope, payoutId: string): Promise<number> {
  const rows = await q.query<{ kept: number }>(
    `SELECT COALESCE(-sum(amount), 0)::bigint AS kept FROM payout_lines
      WHERE marketplace_id = $1 AND mode = $2 AND payout_id = $3 AND ledger_type = 'recovery' AND source_id = $3`,
    [scope.marketplaceId, scope.mode, payoutId],
  );
  return Number(rows[0]!.kept);
}

/** A page of a payout's lines, in the ledger's order (oldest first), keyset by balance transaction. */
export async function selectPayoutLines(q: Queryable, scope: Scope, payoutId: string, page: PageRequest): Promise<PayoutLineRow[]> {
  const rows = await q.query<PayoutLineRow>(
    `SELECT payout_id, balance_transaction, type, ledger_type, amount::bigint AS amount, currency, source_id, payment_id, order_id, created_at FROM payout_lines
      WHERE marketplace_id = $1 AND mode = $2 AND payout_id = $3 AND ($4::text IS NULL OR balance_transaction > $4)
      ORDER BY balance_transaction LIMIT $5`,
    [scope.marketplaceId, scope.mode, payoutId, page.startingAfter, page.limit + 1],
  );
  return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

/** Payouts created in [from, to) that the processor made a transfer for (reconciliation), oldest first, keyset by id. */
export async function selectTransferredPayouts(q: Queryable, scope: Scope, from: Date, to: Date, afterId: string | null, limit: number): Promise<PayoutRow[]> {
  const rows = await q.query<PayoutRow>(
    `SELECT ${COLUMNS} FROM payouts WHERE marketplace_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4 AND processor_reference IS NOT NULL
        AND ($5::text IS NULL OR id > $5) ORDER BY id LIMIT $6`,
    [scope.marketplaceId, scope.mode, from, to, afterId, limit],
  );
  return rows.map(numeric);
}

/** Serializes payouts of one seller: the run and POST /v1/payouts read the same available lines. */
export async function lockSellerPayouts(tx: Tx, scope: Scope, sellerId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`payouts:${scope.marketplaceId}:${scope.mode}:${sellerId}`]);
}
