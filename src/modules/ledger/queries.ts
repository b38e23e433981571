// Every SQL statement of the ledger (the only reader and writer of ledger_lines). Which index each
// read walks is said in docs/ledger.md.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type CreatedRange, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { Side } from './entries.js';

export interface LedgerLineRow {
  id: string;
  entry_id: string;
  type: string;
  account: string;
  side: Side;
  amount: number;
  currency: string;
  source_id: string;
  payment_id: string | null;
  order_id: string | null;
  seller_id: string | null;
  processor_ref: string | null;
  created_at: Date;
}

const COLUMNS = 'id, entry_id, type, account, side, amount, currency, source_id, payment_id, order_id, seller_id, processor_ref, created_at';

export type NewLedgerLine = LedgerLineRow;

/** All lines of one sync or move in one statement (unnest of column arrays). */
export async function insertLedgerLines(tx: Tx, scope: Scope, lines: readonly NewLedgerLine[]): Promise<void> {
  if (lines.length === 0) return;
  const column = <K extends keyof NewLedgerLine>(key: K) => lines.map((line) => line[key]);
  await tx.query(
    `INSERT INTO ledger_lines (marketplace_id, mode, id, entry_id, type, account, side, amount, currency, source_id, payment_id, order_id, seller_id, processor_ref, created_at)
     SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[],
                                  $12::text[], $13::text[], $14::text[], $15::timestamptz[])`,
    [scope.marketplaceId, scope.mode, column('id'), column('entry_id'), column('type'), column('account'), column('side'), column('amount'),
      column('currency'), column('source_id'), column('payment_id'), column('order_id'), column('seller_id'), column('processor_ref'),
      lines.map((line) => line.created_at.toISOString())],
  );
}

/**
 * A payment's balance per account over its lines (ledger_lines_payment_idx), without the explicit
 * entries a sync does not write: card disputes', recoveries' (recoverOwed) and write-offs'.
 */
export async function selectPaymentPositions(q: Queryable, scope: Scope, paymentId: string): Promise<Map<string, number>> {
  const rows = await q.query<{ account: string; balance: number }>(
    `SELECT account, sum(amount)::bigint AS balance FROM ledger_lines
      WHERE marketplace_id = $1 AND mode = $2 AND payment_id = $3
        AND type NOT IN ('dispute', 'dispute_won', 'dispute_lost', 'recovery', 'recovery_reversal', 'seller_debt_write_off')
      GROUP BY account`,
    [scope.marketplaceId, scope.mode, paymentId],
  );
  return new Map(rows.map((row) => [row.account, Number(row.balance)]));
}

/**
 * The types of entries already written for a card dispute (ledger_lines_payment_idx, then the
 * source): on its payment and, for a checkout's charge, on the shares its lost entries name.
 */
export async function selectDisputeEntryTypes(q: Queryable, scope: Scope, paymentIds: readonly string[], disputeId: string): Promise<Set<string>> {
  const rows = await q.query<{ type: string }>(
    `SELECT DISTINCT type FROM ledger_lines WHERE marketplace_id = $1 AND mode = $2 AND payment_id = ANY($3::text[]) AND source_id = $4`,
    [scope.marketplaceId, scope.mode, paymentIds, disputeId],
  );
  return new Set(rows.map((row) => row.type));
}

export async function selectLedgerLine(q: Queryable, scope: Scope, id: string): Promise<LedgerLineRow | null> {
  const rows = await q.query<LedgerLineRow>(`SELECT ${COLUMNS} FROM ledger_lines WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export interface LineFilters extends CreatedRange {
  seller?: string;
  account?: string;
  order?: string;
  payment?: string;
  type?: string;
}

/**
 * A page of lines, newest first, one index walk (docs/ledger.md, "At scale"): ?seller= walks
 * ledger_lines_seller_idx, ?seller=&type= ledger_lines_seller_type_idx, ?type= ledger_lines_type_idx,
 * ?account= ledger_lines_account_id_idx, ?order= ledger_lines_order_idx.
 */
export function selectLedgerLinePage(q: Queryable, scope: Scope, filters: LineFilters, page: PageRequest): Promise<LedgerLineRow[]> {
  return selectPage<LedgerLineRow>(q, {
    sql: `SELECT ${COLUMNS} FROM ledger_lines WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { seller_id: filters.seller, account: filters.account, order_id: filters.order, payment_id: filters.payment, type: filters.type },
    created: filters,
    page,
  });
}

export interface LinesBetween {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  account?: string;
  seller?: string;
  type?: string;
  /** Keyset: the last id of the previous batch; batches go oldest first by id. */
  afterId?: string;
  limit: number;
}

/**
 * One batch of an interval's lines, oldest first, keyset-paged by id (a report streams them batch
 * by batch, never all in memory). With an account it walks ledger_lines_account_idx.
 */
export function selectLinesBetween(q: Queryable, scope: Scope, query: LinesBetween): Promise<LedgerLineRow[]> {
  const params: unknown[] = [scope.marketplaceId, scope.mode, query.from, query.to];
  let sql = `SELECT ${COLUMNS} FROM ledger_lines WHERE marketplace_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4`;
  const add = (condition: string, value: unknown) => {
    params.push(value);
    sql += ` AND ${condition} $${params.length}`;
  };
  if (query.account !== undefined) add('account =', query.account);
  if (query.seller !== undefined) add('seller_id =', query.seller);
  if (query.type !== undefined) add('type =', query.type);
  if (query.afterId !== undefined) add('id >', query.afterId);
  params.push(query.limit);
  return q.query<LedgerLineRow>(`${sql} ORDER BY id LIMIT $${params.length}`, params);
}

export interface AccountBalanceRow {
  account: string;
  currency: string;
  balance: number;
}

/** Every account's balance over the lines created before `at` (ledger_lines_account_idx). */
export function selectAccountBalancesAt(q: Queryable, scope: Scope, at: Date, account?: string): Promise<AccountBalanceRow[]> {
  return q.query<AccountBalanceRow>(
    `SELECT account, currency, sum(amount)::bigint AS balance FROM ledger_lines
      WHERE marketplace_id = $1 AND mode = $2 AND created_at < $3 AND ($4::text IS NULL OR account = $4)
      GROUP BY account, currency ORDER BY account, currency`,
    [scope.marketplaceId, scope.mode, at, account ?? null],
  );
}

export interface SellerTotalsRow {
  pending: number;
  available: number;
  transferred: number;
  reversed: number;
  paidOut: number;
  owed: number;
}

/**
 * A seller's balance and payouts: the seller account's sum (pending), the available account's, the
 * sums of the seller's transfer, transfer_reversal and transfer_failure lines and of their payouts
 * on transfers_out, and what the seller owes (their lines on seller_receivables), in one index-only
 * scan of ledger_lines_seller_type_idx, whose INCLUDE columns hold what it sums.
 */
export async function selectSellerTotals(q: Queryable, scope: Scope, sellerId: string, currency: string): Promise<SellerTotalsRow> {
  const rows = await q.query<Record<keyof SellerTotalsRow, number>>(
    `SELECT COALESCE(sum(amount) FILTER (WHERE account = $4), 0)::bigint AS pending,
            COALESCE(sum(amount) FILTER (WHERE account = $6), 0)::bigint AS available,
            COALESCE(sum(amount) FILTER (WHERE account = 'transfers_out' AND type = 'transfer'), 0)::bigint AS transferred,
            COALESCE(-sum(amount) FILTER (WHERE account = 'transfers_out' AND type IN ('transfer_reversal', 'transfer_failure')), 0)::bigint AS reversed,
            COALESCE(sum(amount) FILTER (WHERE account = 'transfers_out' AND type IN ('payout', 'payout_failure', 'payout_cancellation')), 0)::bigint AS "paidOut",
            COALESCE(sum(amount) FILTER (WHERE account = 'seller_receivables'), 0)::bigint AS owed
       FROM ledger_lines WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 AND currency = $5`,
    [scope.marketplaceId, scope.mode, sellerId, `seller:${sellerId}`, currency, `seller_available:${sellerId}`],
  );
  const row = rows[0]!;
  return { pending: Number(row.pending), available: Number(row.available), transferred: Number(row.transferred), reversed: Number(row.reversed), paidOut: Number(row.paidOut), owed: Number(row.owed) };
}

/**
 * The lines of a seller's available account in one currency, oldest first, the payouts' own
 * entries left out: what payouts contain (ledger_lines_seller_type_idx, the seller's lines).
 */
export function selectAvailableLines(q: Queryable, scope: Scope, sellerId: string, currency: string): Promise<LedgerLineRow[]> {
  return q.query<LedgerLineRow>(
    `SELECT ${COLUMNS} FROM ledger_lines
      WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 AND account = $4 AND currency = $5
        AND type NOT IN ('payout', 'payout_failure', 'payout_cancellation')
      ORDER BY id`,
    [scope.marketplaceId, scope.mode, sellerId, `seller_available:${sellerId}`, currency],
  );
}

export interface AvailableBalanceRow {
  seller_id: string;
  currency: string;
  available: number;
}

/** Every seller of the mode whose available account holds more than nothing, per currency (a payout run's candidates). */
export async function selectPositiveAvailableBalances(q: Queryable, scope: Scope): Promise<AvailableBalanceRow[]> {
  const rows = await q.query<AvailableBalanceRow>(
    `SELECT seller_id, currency, sum(amount)::bigint AS available FROM ledger_lines
      WHERE marketplace_id = $1 AND mode = $2 AND starts_with(account, 'seller_available:')
      GROUP BY seller_id, currency HAVING sum(amount) > 0 ORDER BY seller_id, currency`,
    [scope.marketplaceId, scope.mode],
  );
  return rows.map((row) => ({ ...row, available: Number(row.available) }));
}

export interface UnbalancedEntryRow {
  marketplace_id: string;
  mode: 'test' | 'live';
  entry_id: string;
  imbalance: number;
}

const SIGNED = "CASE side WHEN 'debit' THEN amount ELSE -amount END";

/**
 * The entries with a line newer than their mode's checkpoint that do not balance, and the newest
 * line id per mode (every marketplace and mode at once: the invariants job's incremental pass).
 */
export async function selectNewUnbalancedEntries(q: Queryable, limit: number): Promise<{ unbalanced: UnbalancedEntryRow[]; newest: Array<{ marketplace_id: string; mode: 'test' | 'live'; id: string }> }> {
  const fresh = `SELECT l.marketplace_id, l.mode, l.id, l.entry_id FROM ledger_lines l
      LEFT JOIN ledger_invariant_state s ON s.marketplace_id = l.marketplace_id AND s.mode = l.mode
     WHERE l.id > COALESCE(s.checked_line_id, '')`;
  const newest = await q.query<{ marketplace_id: string; mode: 'test' | 'live'; id: string }>(
    `SELECT marketplace_id, mode, max(id) AS id FROM (${fresh} ORDER BY l.id LIMIT $1) f GROUP BY marketplace_id, mode`,
    [limit],
  );
  const unbalanced = await q.query<UnbalancedEntryRow>(
    `SELECT e.marketplace_id, e.mode, e.entry_id, sum(${SIGNED})::bigint AS imbalance
       FROM ledger_lines e
      WHERE (e.marketplace_id, e.mode, e.entry_id) IN (SELECT f.marketplace_id, f.mode, f.entry_id FROM (${fresh} ORDER BY l.id LIMIT $1) f)
      GROUP BY e.marketplace_id, e.mode, e.entry_id HAVING sum(${SIGNED}) <> 0 OR count(*) < 2`,
    [limit],
  );
  return { unbalanced, newest };
}

/** Every entry that does not balance, in every marketplace and mode (the full pass). */
export function selectAllUnbalancedEntries(q: Queryable): Promise<UnbalancedEntryRow[]> {
  return q.query<UnbalancedEntryRow>(
    `SELECT marketplace_id, mode, entry_id, sum(${SIGNED})::bigint AS imbalance FROM ledger_lines
      GROUP BY marketplace_id, mode, entry_id HAVING sum(${SIGNED}) <> 0 OR count(*) < 2`,
  );
}

/** The payments that have lines newer than `afterId` in a mode (whose positions to check). */
export async function selectPaymentIdsWithLinesAfter(q: Queryable, scope: Scope, afterId: string, upToId: string): Promise<string[]> {
  const rows = await q.query<{ payment_id: string }>(
    `SELECT DISTINCT payment_id FROM ledger_lines WHERE marketplace_id = $1 AND mode = $2 AND id > $3 AND id <= $4 AND payment_id IS NOT NULL`,
    [scope.marketplaceId, scope.mode, afterId, upToId],
  );
  return rows.map((row) => row.payment_id);
}

export async function selectCheckedLineId(q: Queryable, scope: Scope): Promise<string> {
  const rows = await q.query<{ checked_line_id: string }>('SELECT checked_line_id FROM ledger_invariant_state WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
  ]);
  return rows[0]?.checked_line_id ?? '';
}

export async function upsertCheckedLineId(tx: Tx, scope: Scope, id: string): Promise<void> {
  await tx.query(
    `INSERT INTO ledger_invariant_state (marketplace_id, mode, checked_line_id) VALUES ($1, $2, $3)
     ON CONFLICT (marketplace_id, mode) DO UPDATE SET checked_line_id = GREATEST(ledger_invariant_state.checked_line_id, EXCLUDED.checked_line_id)`,
    [scope.marketplaceId, scope.mode, id],
  );
}

/** Records a violation once per check and subject; answers whether it is new. */
export async function insertInvariantViolation(tx: Tx, scope: Scope, check: string, subjectId: string, detail: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO ledger_invariant_violations (marketplace_id, mode, check_name, subject_id, detail, found_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (marketplace_id, mode, check_name, subject_id) DO NOTHING RETURNING id`,
    [scope.marketplaceId, scope.mode, check, subjectId, detail, now],
  );
  return rows.length > 0;
}

/** The violations found so far by check, over every marketplace and mode (GET /metrics: counts only). */
export async function selectViolationCounts(q: Queryable): Promise<Array<{ check_name: string; count: number }>> {
  const rows = await q.query<{ check_name: string; count: number }>(
    'SELECT marketplace_id, mode, check_name, count(*)::bigint AS count FROM ledger_invariant_violations GROUP BY marketplace_id, mode, check_name',
  );
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.check_name, (totals.get(row.check_name) ?? 0) + Number(row.count));
  return [...totals].map(([check_name, count]) => ({ check_name, count }));
}

export interface DailyTotalRow {
  day: string;
  orders: number | string;
  gross_volume: number | string;
  fees: number | string;
  refunds: number | string;
}

/**
 * The money of each UTC day of [from, to) from the three accounts that say it (buyer_funds for
 * charges, platform_fees, refunds_out): one statement over ledger_lines_account_idx (account,
 * created_at). Days without a line are absent. Card-dispute lines (buyer_funds `dispute`,
 * `dispute_won`) are not charges: only `charge` and `charge_reversal` count as volume.
 */
export async function selectDailyTotals(q: Queryable, scope: Scope, currency: string, from: Date, to: Date): Promise<DailyTotalRow[]> {
  return q.query<DailyTotalRow>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
            count(DISTINCT order_id) FILTER (WHERE account = 'buyer_funds' AND type = 'charge') AS orders,
            coalesce(sum(amount) FILTER (WHERE account = 'buyer_funds' AND type IN ('charge', 'charge_reversal')), 0) AS gross_volume,
            coalesce(sum(amount) FILTER (WHERE account = 'platform_fees'), 0) AS fees,
            coalesce(sum(amount) FILTER (WHERE account = 'refunds_out'), 0) AS refunds
       FROM ledger_lines
      WHERE marketplace_id = $1 AND mode = $2 AND account IN ('buyer_funds', 'platform_fees', 'refunds_out')
        AND created_at >= $3 AND created_at < $4 AND currency = $5
      GROUP BY 1`,
    [scope.marketplaceId, scope.mode, from, to, currency],
  );
}

/**
 * Serializes what changes a seller's debt by reading it first (a recovery, a write-off) for the
 * rest of the transaction, so two releases of one seller never recover the same debt twice.
 */
export async function lockSellerDebt(tx: Tx, scope: Scope, sellerId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`seller_debt:${scope.marketplaceId}:${scope.mode}:${sellerId}`]);
}

/** What the seller owes in a currency: their lines on seller_receivables (ledger_lines_seller_type_idx, index-only). */
export async function selectOwed(q: Queryable, scope: Scope, sellerId: string, currency: string): Promise<number> {
  const rows = await q.query<{ owed: number }>(
    `SELECT COALESCE(sum(amount), 0)::bigint AS owed FROM ledger_lines
      WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 AND account = 'seller_receivables' AND currency = $4`,
    [scope.marketplaceId, scope.mode, sellerId, currency],
  );
  return Number(rows[0]?.owed ?? 0);
}

export interface ReceivableLineRow {
  amount: number;
  currency: string;
  created_at: Date;
}

/** The seller's lines on seller_receivables, oldest first (what a write-off weighs, first in first out). */
export async function selectReceivableLines(q: Queryable, scope: Scope, sellerId: string): Promise<ReceivableLineRow[]> {
  const rows = await q.query<ReceivableLineRow>(
    `SELECT amount, currency, created_at FROM ledger_lines
      WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 AND account = 'seller_receivables'
      ORDER BY created_at, id`,
    [scope.marketplaceId, scope.mode, sellerId],
  );
  return rows.map((row) => ({ amount: Number(row.amount), currency: row.currency, created_at: new Date(row.created_at) }));
}
