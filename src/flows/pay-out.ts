// Paying sellers from their available balance (docs/payouts.md): the payout run (a timer per mode
// at 00:00 UTC of each day on the mode's clock) and POST /v1/payouts. Each payout is written in
// the run's (or the request's) transaction: the seller's payouts locked (payouts), the available
// lines no payout holds yet read (ledger), what the seller owes recovered first (ledger
// recoverOwed), then the payout of the rest with its lines, its entry, its event and its send job
// (payouts). The processor is called by the
// job after the COMMIT, never inside this transaction.
import type { OperationContext } from '../contracts/context.js';
import type { DueTimer, TimerHandler } from '../contracts/background.js';
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import { errors } from '../errors.js';
import { scheduleTimer } from '../workers/timers.js';
import { availableLinesOf, findOwed, positiveAvailableBalances, recoverOwed } from '../modules/ledger/index.js';
import { connectedProvider, loadSettings, loadSettingsAndNow } from '../modules/marketplaces/index.js';
import {
  createPayout,
  DAY_MS,
  effectiveSchedules,
  isRunDay,
  lockSellerPayouts,
  newPayoutId,
  nothingAvailable,
  requireSellerExists,
  startOfDay,
  uncontainedLines,
  type Payout,
} from '../modules/payouts/index.js';
import { findSellerPayouts } from '../modules/sellers/index.js';

export const PAYOUT_RUN_TIMER = 'payouts.run';

interface PayOutInput {
  seller: string;
  currency: string;
  provider: string;
  automatic: boolean;
  /** The least amount to pay (a run's schedule minimum; 1 for POST /v1/payouts). */
  minimum: number;
  periodEnd: Date;
  now: Date;
}

/**
 * One seller's payout, or what is left available when it is below `minimum` (no payout written
 * then). What the seller owes (issue 36, item 4: a refund whose reversal was refused, a lost card
 * dispute) is kept first, up to the available amount: one `recovery` entry on the available
 * account (seller_available −r, seller_receivables −r), whose line the payout contains, so its
 * lines still sum to what it pays (available − r). Its source is the payout when one is written (a
 * failed or canceled payout gives it back: payouts' restorePayoutRecovery), else the seller: a debt
 * the balance covers whole, or a rest below the minimum, is recovered with no payout.
 */
async function payOutSeller(tx: Tx, scope: Scope, input: PayOutInput): Promise<Payout | { available: number }> {
  await lockSellerPayouts(tx, scope, input.seller);
  let lines = await uncontainedLines(tx, scope, await availableLinesOf(tx, scope, input.seller, input.currency));
  const available = lines.reduce((sum, line) => sum + Number(line.amount), 0);
  if (available <= 0) return { available };
  const planned = Math.min(await findOwed(tx, scope, input.seller, input.currency), available);
  // Never more than planned (recoverOwed takes the debt lock and reads the debt again): the rest only grows.
  const willPay = available - planned >= input.minimum;
  const id = newPayoutId();
  const source = willPay ? { id, paymentId: null, orderId: null } : { id: input.seller, paymentId: null, orderId: null };
  const recovered = await recoverOwed(tx, scope, { seller: input.seller, currency: input.currency, upTo: planned, source, from: 'available', now: input.now });
  if (recovered > 0) {
    // The lines read before and the recovery's own: a line another transaction committed meanwhile waits for the next payout.
    const read = new Set(lines.map((line) => line.id));
    const again = await uncontainedLines(tx, scope, await availableLinesOf(tx, scope, input.seller, input.currency));
    lines = again.filter((line) => read.has(line.id) || (line.type === 'recovery' && line.source_id === source.id));
  }
  const amount = lines.reduce((sum, line) => sum + Number(line.amount), 0);
  if (amount < input.minimum || amount <= 0) return { available: amount };
  return createPayout(tx, scope, { id, sellerId: input.seller, currency: input.currency, provider: input.provider, automatic: input.automatic, lines, periodEnd: input.periodEnd }, input.now);
}

const isPayout = (value: Payout | { available: number }): value is Payout => 'id' in value;

/**
 * POST /v1/payouts {seller}: the seller's available balance now, whatever their schedule (a manual
 * schedule's only way; the minimum does not apply). Refusals: 404 the seller, 403
 * processor_not_connected, 403 seller_payouts_not_enabled, 409 payout_nothing_available.
 */
export async function payOutNow(ctx: OperationContext, sellerId: string): Promise<Payout> {
  const made = await ctx.db.transaction(async (tx) => {
    const seller = await requireSellerExists(tx, ctx.scope, sellerId, 'seller');
    const provider = await connectedProvider(tx, ctx.scope);
    if (provider === null) throw errors.forbidden('processor_not_connected', 'This mode has no payment processor connection; connect one in the dashboard first.');
    if (seller.payouts_status !== 'enabled' || seller.processor_account === null) {
      throw errors.forbidden('seller_payouts_not_enabled', `The seller cannot receive payouts yet (payouts ${seller.payouts_status}): have them finish onboarding with the processor (POST /v1/sellers/${sellerId}/onboarding_links).`, 'seller');
    }
    const { now } = await loadSettingsAndNow(tx, ctx.clock, ctx.scope);
    return payOutSeller(tx, ctx.scope, { seller: sellerId, currency: ctx.currency, provider, automatic: false, minimum: 1, periodEnd: now, now });
  });
  // Refused after the COMMIT: what the seller owed and the balance covered whole stays recovered.
  if (!isPayout(made)) throw nothingAvailable(sellerId, made.available);
  return made;
}

const runSubject = (day: Date): string => `run:${day.toISOString().slice(0, 10)}`;

/**
 * Starts the mode's daily payout run if it is not running: called whenever a share moves to a
 * seller's balance. Once started it runs every day (a day without a due seller costs one read).
 */
export async function startPayoutRuns(tx: Tx, scope: Scope, now: Date): Promise<void> {
  const next = new Date(startOfDay(now).getTime() + DAY_MS);
  await scheduleTimer(tx, scope, PAYOUT_RUN_TIMER, runSubject(next), next);
}

/**
 * The run of one day (its timer's time, 00:00 UTC): every seller with something available whose
 * schedule runs that day, whose balance reaches its minimum and who can receive payouts, is paid;
 * the others wait for a later run. Then tomorrow's run is set (its own timer: a timer's row is
 * removed after its handler).
 */
export const payoutRunTimer: TimerHandler = async (tx, scope, timer: DueTimer, now) => {
  const day = startOfDay(timer.runAt);
  const provider = await connectedProvider(tx, scope);
  if (provider !== null) {
    const settings = await loadSettings(tx, scope);
    const candidates = await positiveAvailableBalances(tx, scope);
    const schedules = await effectiveSchedules(tx, scope, [...new Set(candidates.map((c) => c.seller_id))], settings);
    for (const candidate of candidates) {
      const schedule = schedules.get(candidate.seller_id);
      if (!schedule || !isRunDay(schedule, day) || candidate.available < schedule.minimum) continue;
      const seller = await findSellerPayouts(tx, scope, candidate.seller_id);
      if (!seller || seller.payouts_status !== 'enabled' || seller.processor_account === null) continue;
      await payOutSeller(tx, scope, { seller: candidate.seller_id, currency: candidate.currency, provider, automatic: true, minimum: schedule.minimum, periodEnd: day, now });
    }
  }
  const next = new Date(day.getTime() + DAY_MS);
  await scheduleTimer(tx, scope, PAYOUT_RUN_TIMER, runSubject(next), next);
};
