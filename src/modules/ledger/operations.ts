// The ledger's operations: posting entries inside another module's transaction, and the reads of
// the API and of reports. Nothing else writes ledger_lines (docs/ledger.md).
import type { OperationContext } from '../../contracts/context.js';
import type { Queryable, Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import { timeInput } from '../../http/schemas.js';
import { modeNow, type Scope } from '../../scope.js';
import { findSellerPayouts } from '../sellers/index.js';
import type { DueTimer } from '../../contracts/background.js';
import { checkEntry, sideOf, type NewEntry } from './entries.js';
import * as queries from './queries.js';
import * as sellerDebt from './seller-debt.js';
import type { RecoverOwed, RestoreRecovered } from './seller-debt.js';
import type { AccountBalanceRow, LedgerLineRow, LinesBetween, NewLedgerLine } from './queries.js';
import type { BalanceTransaction, DailyTotals, DailyTotalsQuery, ListBalanceTransactionsQuery, SellerBalance } from './schemas.js';
import { serializeBalanceTransaction } from './serialize.js';

/**
 * Writes journal entries in the caller's transaction, at `now` (the mode's clock), in the order
 * given; each is checked first (two lines or more, none zero, balancing), and an unbalanced one
 * refuses the whole call with nothing written. An entry that grows what a seller owes
 * (seller_receivables) sets the write-off timer of that debt.
 */
export async function postEntries(tx: Tx, scope: Scope, now: Date, entries: readonly NewEntry[]): Promise<void> {
  for (const entry of entries) checkEntry(entry);
  const lines: NewLedgerLine[] = [];
  for (const entry of entries) {
    const entryId = newId('journalEntry');
    for (const line of entry.lines) {
      lines.push({
        id: newId('balanceTransaction'),
        entry_id: entryId,
        type: entry.type,
        account: line.account,
        side: sideOf(line.account),
        amount: line.amount,
        currency: entry.currency,
        source_id: entry.sourceId,
        payment_id: entry.paymentId,
        order_id: entry.orderId,
        seller_id: entry.sellerId,
        processor_ref: entry.processorRef,
        created_at: now,
      });
    }
  }
  await queries.insertLedgerLines(tx, scope, lines);
  const indebted = new Set(entries.filter((entry) => entry.sellerId !== null && entry.lines.some((line) => line.account === 'seller_receivables' && line.amount > 0)).map((entry) => entry.sellerId!));
  for (const sellerId of indebted) await sellerDebt.scheduleWriteOff(tx, scope, sellerId, now);
}

/**
 * Keeps up to `upTo` of what is about to be sent to the seller to pay what they owe in that
 * currency (one `recovery` entry); answers what was kept. A payment's release calls it before its
 * transfer (the transfer is the rest); a payout does the same before it pays.
 */
export function recoverOwed(tx: Tx, scope: Scope, input: RecoverOwed): Promise<number> {
  return sellerDebt.recoverOwed(tx, scope, input, (entries) => postEntries(tx, scope, input.now, entries));
}

/** What a failed release (or payout) had kept is owed again (`recovery_reversal`). */
export function restoreRecovered(tx: Tx, scope: Scope, input: RestoreRecovered): Promise<void> {
  return sellerDebt.restoreRecovered(tx, scope, input, (entries) => postEntries(tx, scope, input.now, entries));
}

/** What the seller owes in a currency now. */
export function findOwed(q: Queryable, scope: Scope, sellerId: string, currency: string): Promise<number> {
  return queries.selectOwed(q, scope, sellerId, currency);
}

/** The write-off timer of a seller's debt (SELLER_DEBT_WRITE_OFF_TIMER). */
export function sellerDebtWriteOffTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date): Promise<void> {
  return sellerDebt.writeOffTimer(tx, scope, timer, now, (entries) => postEntries(tx, scope, now, entries));
}

/** A payment's current balance per account, card disputes' entries excluded (what a sync compares). */
export function findPaymentPositions(q: Queryable, scope: Scope, paymentId: string): Promise<Map<string, number>> {
  return queries.selectPaymentPositions(q, scope, paymentId);
}

/** Which card-dispute entry types (dispute, dispute_won, dispute_lost) a dispute already has on these payments. */
export function findDisputeEntryTypes(q: Queryable, scope: Scope, paymentIds: readonly string[], disputeId: string): Promise<Set<string>> {
  return queries.selectDisputeEntryTypes(q, scope, paymentIds, disputeId);
}

/** One batch of an interval's lines (oldest first, keyset by id): reports loop until a batch is short. */
export function ledgerLinesBetween(q: Queryable, scope: Scope, query: LinesBetween): Promise<LedgerLineRow[]> {
  return queries.selectLinesBetween(q, scope, query);
}

/** Every account's (or one account's) balance from the lines created before `at`. */
export function accountBalancesAt(q: Queryable, scope: Scope, at: Date, account?: string): Promise<AccountBalanceRow[]> {
  return queries.selectAccountBalancesAt(q, scope, at, account);
}

export async function listBalanceTransactions(ctx: OperationContext, query: ListBalanceTransactionsQuery): Promise<ListEnvelope<BalanceTransaction>> {
  const page = pageRequest(query, 'balanceTransaction');
  const at = (value: string | number | undefined) => (value === undefined ? undefined : timeInput(value));
  const rows = await queries.selectLedgerLinePage(
    ctx.db,
    ctx.scope,
    { seller: query.seller, account: query.account, order: query.order, payment: query.payment, type: query.type, createdGte: at(query['created[gte]']), createdGt: at(query['created[gt]']), createdLte: at(query['created[lte]']), createdLt: at(query['created[lt]']) },
    page,
  );
  return toList(rows.map(serializeBalanceTransaction), page.limit);
}

export async function retrieveBalanceTransaction(ctx: OperationContext, id: string): Promise<BalanceTransaction> {
  const row = await queries.selectLedgerLine(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('balance_transaction', id);
  return serializeBalanceTransaction(row);
}

/** The seller's balance from the ledger, in the marketplace currency; 404 for an unknown seller. */
export async function retrieveSellerBalance(ctx: OperationContext, sellerId: string): Promise<Omit<SellerBalance, 'next_payout_at'>> {
  if (!(await findSellerPayouts(ctx.db, ctx.scope, sellerId))) throw errors.missing('seller', sellerId);
  const totals = await queries.selectSellerTotals(ctx.db, ctx.scope, sellerId, ctx.currency);
  return {
    object: 'seller_balance',
    seller: sellerId,
    currency: ctx.currency,
    pending: totals.pending,
    available: totals.available,
    transferred: totals.transferred,
    reversed: totals.reversed,
    paid_out: totals.paidOut,
    owed: totals.owed,
    net: totals.pending + totals.available + totals.transferred + totals.paidOut - totals.reversed - totals.owed,
    livemode: ctx.scope.mode === 'live',
  };
}

/** A scheduled seller's lines that payouts contain (docs/payouts.md): the available account's, payouts' own entries left out. */
export function availableLinesOf(q: Queryable, scope: Scope, sellerId: string, currency: string): Promise<LedgerLineRow[]> {
  return queries.selectAvailableLines(q, scope, sellerId, currency);
}

/** The sellers with something available, per currency: a payout run's candidates. */
export function positiveAvailableBalances(q: Queryable, scope: Scope): Promise<queries.AvailableBalanceRow[]> {
  return queries.selectPositiveAvailableBalances(q, scope);
}

const DAY_MS = 86_400_000;

/**
 * The mode's money per UTC day over the last `days` days, today (on the mode's clock) included:
 * one statement, zeros filled in for days without movement (docs/ledger.md, "Daily totals").
 */
export async function retrieveDailyTotals(ctx: OperationContext, query: DailyTotalsQuery): Promise<DailyTotals> {
  const days = query.days ?? 30;
  const now = await modeNow(ctx.db, ctx.clock, ctx.scope);
  const end = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  const start = end - days * DAY_MS;
  const rows = await queries.selectDailyTotals(ctx.db, ctx.scope, ctx.currency, new Date(start), new Date(end));
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const data: DailyTotals['data'] = [];
  for (let at = start; at < end; at += DAY_MS) {
    const date = new Date(at).toISOString().slice(0, 10);
    const row = byDay.get(date);
    data.push({
      date,
      orders: Number(row?.orders ?? 0),
      gross_volume: Number(row?.gross_volume ?? 0),
      fees: Number(row?.fees ?? 0),
      refunds: Number(row?.refunds ?? 0),
    });
  }
  return { object: 'daily_totals', currency: ctx.currency, livemode: ctx.scope.mode === 'live', data };
}
