// The payouts module's operations (docs/payouts.md): schedules (the seller's override or the
// mode's setting), payouts written with their lines and idempotency key, their moves by the
// machine table, and the reads of the API. Each write runs in the caller's transaction or its own.
import type { OperationContext } from '../../contracts/context.js';
import { fullPayoutSchedule, type PayoutSchedule, type PayoutScheduleInput, type Settings } from '../../contracts/settings.js';
import type { Queryable, Tx } from '../../db/db.js';
import { move, type Actor } from '../../domain/state-machine.js';
import { DomainError, errors } from '../../errors.js';
import { timeInput } from '../../http/schemas.js';
import { newId } from '../../ids.js';
import { emitEvent } from '../../outbox/emit.js';
import { pageRequest, type ListEnvelope } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import { enqueueJob } from '../../workers/job-queue.js';
import { availableAccount, postEntries, restoreRecovered, type LedgerLineRow } from '../ledger/index.js';
import { loadSettingsAndNow } from '../marketplaces/index.js';
import { findSellerPayouts } from '../sellers/index.js';
import { PAYOUT_MACHINE, type PayoutStatus } from './machine.js';
import * as queries from './queries.js';
import type { PayoutLineRow, PayoutRow } from './queries.js';
import { nextRunAt } from './schedule.js';
import type { ListPayoutLinesQuery, ListPayoutsQuery, Payout, PayoutLine, SellerPayoutSchedule } from './schemas.js';
import { serializePayout, serializePayoutLine } from './serialize.js';

export const PAYOUT_SEND_JOB = 'payout.send';

// ---- schedules ----

export interface EffectiveSchedule {
  schedule: PayoutSchedule;
  source: 'seller' | 'mode';
}

/** The seller's own schedule, or the mode's payout_schedule setting. */
export async function effectiveSchedule(q: Queryable, scope: Scope, sellerId: string, settings: Settings): Promise<EffectiveSchedule> {
  const own = await queries.selectSellerSchedule(q, scope, sellerId);
  return own !== null ? { schedule: fullPayoutSchedule(own), source: 'seller' } : { schedule: fullPayoutSchedule(settings.payout_schedule), source: 'mode' };
}

/** The effective schedules of many sellers (a payout run): one statement. */
export async function effectiveSchedules(q: Queryable, scope: Scope, sellerIds: readonly string[], settings: Settings): Promise<Map<string, PayoutSchedule>> {
  const own = await queries.selectSellerSchedules(q, scope, sellerIds);
  const mode = fullPayoutSchedule(settings.payout_schedule);
  return new Map(sellerIds.map((id) => [id, own.has(id) ? fullPayoutSchedule(own.get(id)!) : mode]));
}

/** When the seller's schedule next runs on its own; null for per_order and manual. */
export async function nextPayoutAt(q: Queryable, scope: Scope, sellerId: string, settings: Settings, now: Date): Promise<Date | null> {
  return nextRunAt((await effectiveSchedule(q, scope, sellerId, settings)).schedule, now);
}

async function requireSellerExists(q: Queryable, scope: Scope, sellerId: string, param?: string) {
  const seller = await findSellerPayouts(q, scope, sellerId);
  if (!seller) throw errors.missing('seller', sellerId, param);
  return seller;
}

const scheduleObject = (scope: Scope, sellerId: string, effective: EffectiveSchedule): SellerPayoutSchedule => ({
  object: 'payout_schedule',
  seller: sellerId,
  source: effective.source,
  ...effective.schedule,
  livemode: scope.mode === 'live',
});

export async function retrievePayoutSchedule(ctx: OperationContext, sellerId: string): Promise<SellerPayoutSchedule> {
  await requireSellerExists(ctx.db, ctx.scope, sellerId);
  const { settings } = await loadSettingsAndNow(ctx.db, ctx.clock, ctx.scope);
  return scheduleObject(ctx.scope, sellerId, await effectiveSchedule(ctx.db, ctx.scope, sellerId, settings));
}

/** PUT: the seller's own schedule, the fields left out at their defaults (not the mode's). */
export async function putPayoutSchedule(ctx: OperationContext, sellerId: string, body: PayoutScheduleInput): Promise<SellerPayoutSchedule> {
  return ctx.db.transaction(async (tx) => {
    await requireSellerExists(tx, ctx.scope, sellerId);
    const { now } = await loadSettingsAndNow(tx, ctx.clock, ctx.scope);
    const schedule = fullPayoutSchedule(body);
    await queries.upsertSellerSchedule(tx, ctx.scope, sellerId, schedule, now);
    return scheduleObject(ctx.scope, sellerId, { schedule, source: 'seller' });
  });
}

/** DELETE: the seller follows the mode's setting again; answers that schedule. */
export async function deletePayoutSchedule(ctx: OperationContext, sellerId: string): Promise<SellerPayoutSchedule> {
  return ctx.db.transaction(async (tx) => {
    await requireSellerExists(tx, ctx.scope, sellerId);
    await queries.deleteSellerSchedule(tx, ctx.scope, sellerId);
    const { settings } = await loadSettingsAndNow(tx, ctx.clock, ctx.scope);
    return scheduleObject(ctx.scope, sellerId, { schedule: fullPayoutSchedule(settings.payout_schedule), source: 'mode' });
  });
}

// ---- payouts ----

/** Serializes the payouts of one seller in the caller's transaction (a run and POST /v1/payouts). */
export const lockSellerPayouts = queries.lockSellerPayouts;

/** The lines of the available account no payout (pending, in transit or paid) contains yet: what a payout would pay. */
export async function uncontainedLines(q: Queryable, scope: Scope, lines: readonly LedgerLineRow[]): Promise<LedgerLineRow[]> {
  const contained = await queries.selectContainedLines(q, scope, lines.map((line) => line.id));
  return lines.filter((line) => !contained.has(line.id));
}

/** What a ledger line is to a payout (docs/payouts.md, "Lines"). */
function lineTypeOf(line: LedgerLineRow): PayoutLine['type'] {
  switch (line.type) {
    case 'share_available':
      return 'order_share';
    case 'refund':
    case 'refund_failure':
      return 'refund';
    case 'platform_fee':
    case 'platform_fee_refund':
      return 'fee';
    case 'recovery':
    case 'recovery_reversal':
      return 'recovery';
    default:
      return 'adjustment';
  }
}

/** A payout's id before it is written (a recovery booked against it first: src/flows/pay-out.ts). */
export const newPayoutId = (): string => newId('payout');

export interface NewPayout {
  /** The id chosen beforehand when a recovery is booked against the payout (src/flows/pay-out.ts); new otherwise. */
  id?: string;
  sellerId: string;
  currency: string;
  provider: string;
  automatic: boolean;
  /** The lines it pays (their sum is the amount, more than 0). */
  lines: readonly LedgerLineRow[];
  /** The run's moment, or now for POST /v1/payouts. */
  periodEnd: Date;
}

/**
 * Writes a payout pending with its idempotency key and lines, the `payout` entry (its amount leaves
 * the available account for transfers_out), `payout.created`, and its send job: all in the caller's
 * transaction, so the processor is called only once this is committed.
 */
export async function createPayout(tx: Tx, scope: Scope, input: NewPayout, now: Date): Promise<Payout> {
  const amount = input.lines.reduce((sum, line) => sum + Number(line.amount), 0);
  if (amount <= 0) throw new Error(`a payout pays more than nothing (${amount})`);
  const id = input.id ?? newId('payout');
  const periodStart = input.lines.reduce((min, line) => (line.created_at < min ? line.created_at : min), input.periodEnd);
  const row = await queries.insertPayout(tx, scope, {
    id,
    seller_id: input.sellerId,
    amount,
    currency: input.currency,
    status: 'pending',
    automatic: input.automatic,
    provider: input.provider,
    idempotency_key: `${id}:transfer`,
    period_start: periodStart,
    period_end: input.periodEnd,
    created_at: now,
  });
  await queries.insertPayoutLines(
    tx,
    scope,
    input.lines.map((line) => ({
      payout_id: id,
      balance_transaction: line.id,
      type: lineTypeOf(line),
      ledger_type: line.type,
      amount: Number(line.amount),
      currency: line.currency,
      source_id: line.source_id,
      payment_id: line.payment_id,
      order_id: line.order_id,
      created_at: line.created_at,
    })),
  );
  await postPayoutEntry(tx, scope, row, 'payout', -amount, now);
  const payout = serializePayout(row, scope);
  await emitEvent(tx, scope, now, 'payout.created', payout);
  await enqueueJob(tx, { name: PAYOUT_SEND_JOB, clock: 'mode' }, { owner: scope, runAt: now, subjectId: id, concurrencyKey: id, payload: {} });
  return payout;
}

/** A payout's own entry: `payout` takes its amount from available; failure and cancellation give it back. */
async function postPayoutEntry(tx: Tx, scope: Scope, row: PayoutRow, type: 'payout' | 'payout_failure' | 'payout_cancellation', availableDelta: number, now: Date): Promise<void> {
  await postEntries(tx, scope, now, [{
    type,
    currency: row.currency,
    sourceId: row.id,
    paymentId: null,
    orderId: null,
    sellerId: row.seller_id,
    processorRef: row.processor_reference,
    lines: [{ account: availableAccount(row.seller_id), amount: availableDelta }, { account: 'transfers_out', amount: -availableDelta }],
  }]);
}

/**
 * A failed or canceled payout gives back what it kept for the seller's debt (its own `recovery`
 * lines, source the payout): owed again (`recovery_reversal` on the available account), so the
 * available balance is whole again and the next payout recovers anew (docs/payouts.md).
 */
async function restorePayoutRecovery(tx: Tx, scope: Scope, row: PayoutRow, now: Date): Promise<void> {
  const kept = await queries.selectPayoutRecovered(tx, scope, row.id);
  const source = { id: row.id, paymentId: null, orderId: null };
  await restoreRecovered(tx, scope, { seller: row.seller_id, currency: row.currency, amount: kept, source, from: 'available', now });
}

/** Moves a locked payout by the machine table and emits the row's events. */
export async function movePayout(
  tx: Tx,
  scope: Scope,
  row: PayoutRow,
  operation: keyof typeof PAYOUT_MACHINE.operations,
  actor: Actor,
  changes: queries.PayoutChanges,
  now: Date,
): Promise<PayoutRow> {
  const step = move(PAYOUT_MACHINE, row.status, operation, actor);
  const after = await queries.updatePayout(tx, scope, row.id, { ...changes, status: step.to as PayoutStatus });
  if (step.to === 'failed') await postPayoutEntry(tx, scope, after, 'payout_failure', after.amount, now);
  if (step.to === 'canceled') await postPayoutEntry(tx, scope, after, 'payout_cancellation', after.amount, now);
  if (step.to === 'failed' || step.to === 'canceled') await restorePayoutRecovery(tx, scope, after, now);
  for (const type of step.emits) await emitEvent(tx, scope, now, type, serializePayout(after, scope));
  return after;
}

/** A payout failed (the processor refused it, gave up, or reported it failed after paying): its amount back to available. */
export function failPayout(tx: Tx, scope: Scope, row: PayoutRow, message: string, actor: Actor, now: Date): Promise<PayoutRow> {
  return movePayout(tx, scope, row, 'fail', actor, { failure_message: message, failed_at: now }, now);
}

export function lockPayout(tx: Tx, scope: Scope, id: string): Promise<PayoutRow | null> {
  return queries.lockPayout(tx, scope, id);
}

async function requirePayoutLocked(tx: Tx, scope: Scope, id: string): Promise<PayoutRow> {
  const row = await queries.lockPayout(tx, scope, id);
  if (!row) throw errors.missing('payout', id);
  return row;
}

/** POST /v1/payouts/{id}/cancel: only while pending (the processor not called yet); the amount back to available. */
export async function cancelPayout(ctx: OperationContext, id: string): Promise<Payout> {
  return ctx.db.transaction(async (tx) => {
    const row = await requirePayoutLocked(tx, ctx.scope, id);
    const { now } = await loadSettingsAndNow(tx, ctx.clock, ctx.scope);
    return serializePayout(await movePayout(tx, ctx.scope, row, 'cancel', 'platform', { canceled_at: now }, now), ctx.scope);
  });
}

/** The simulated processor's test helper: the payout fails (at once, or after it was paid). */
export async function failSimulatedPayout(ctx: OperationContext, id: string, message: string | undefined): Promise<Payout> {
  return ctx.db.transaction(async (tx) => {
    const row = await requirePayoutLocked(tx, ctx.scope, id);
    if (row.provider !== 'simulated') throw errors.invalidState('payout', `made through ${row.provider}`, 'be failed by a test helper');
    const { now } = await loadSettingsAndNow(tx, ctx.clock, ctx.scope);
    return serializePayout(await failPayout(tx, ctx.scope, row, message ?? 'The simulated processor failed the payout.', 'processor', now), ctx.scope);
  });
}

export async function retrievePayout(ctx: OperationContext, id: string): Promise<Payout> {
  const row = await queries.selectPayout(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('payout', id);
  return serializePayout(row, ctx.scope);
}

export async function listPayouts(ctx: OperationContext, query: ListPayoutsQuery): Promise<ListEnvelope<Payout>> {
  const page = pageRequest(query, 'payout');
  const at = (value: string | number | undefined) => (value === undefined ? undefined : timeInput(value));
  const rows = await queries.selectPayoutPage(
    ctx.db,
    ctx.scope,
    { seller: query.seller, status: query.status, createdGte: at(query['created[gte]']), createdGt: at(query['created[gt]']), createdLte: at(query['created[lte]']), createdLt: at(query['created[lt]']) },
    page,
  );
  const hasMore = rows.length > page.limit;
  const data = (hasMore ? rows.slice(0, page.limit) : rows).map((row) => serializePayout(row, ctx.scope));
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
}

/** A payout's lines in the ledger's order (oldest first); next_cursor is the last line's balance transaction. */
export async function listPayoutLines(ctx: OperationContext, id: string, query: ListPayoutLinesQuery): Promise<ListEnvelope<PayoutLine>> {
  if (!(await queries.selectPayout(ctx.db, ctx.scope, id))) throw errors.missing('payout', id);
  const page = pageRequest(query, 'balanceTransaction');
  const rows: PayoutLineRow[] = await queries.selectPayoutLines(ctx.db, ctx.scope, id, page);
  const hasMore = rows.length > page.limit;
  const data = (hasMore ? rows.slice(0, page.limit) : rows).map(serializePayoutLine);
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.balance_transaction : null };
}

/** POST /v1/payouts with nothing to pay. */
export const nothingAvailable = (sellerId: string, available: number): DomainError =>
  new DomainError('payout_nothing_available', `The seller ${sellerId} has ${available} available to pay out; a payout pays more than 0.`, 'seller');

export { requireSellerExists };

/** The transfers payouts of an interval made (reconciliation: the payout entry is written before the transfer exists, so it names none). */
export async function* payoutTransfersBetween(q: Queryable, scope: Scope, range: { from: Date; to: Date }): AsyncGenerator<{ reference: string; amount: number; currency: string }> {
  let after: string | null = null;
  for (;;) {
    const rows = await queries.selectTransferredPayouts(q, scope, range.from, range.to, after, 1000);
    for (const row of rows) yield { reference: row.processor_reference!, amount: row.amount, currency: row.currency };
    if (rows.length < 1000) return;
    after = rows[rows.length - 1]!.id;
  }
}
