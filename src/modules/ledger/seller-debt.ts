// What sellers owe after being paid (docs/ledger.md, "What sellers owe"): a debt on
// seller_receivables, recovered from the seller's next releases (or payouts) before anything is
// sent, and written off to platform_losses when the mode's `seller_debt_write_off_days` have passed
// since it arose (first in, first out), by a timer on the mode's clock.
import type { DueTimer } from '../../contracts/background.js';
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { scheduleTimer } from '../../workers/timers.js';
import { loadSettings } from '../marketplaces/index.js';
import { availableAccount, checkEntry, sellerAccount, type NewEntry } from './entries.js';
import * as queries from './queries.js';
import type { ReceivableLineRow } from './queries.js';

export const SELLER_DEBT_WRITE_OFF_TIMER = 'ledger.seller_debt_write_off';
const DAY_MS = 86_400_000;

/** What a recovery is booked against: the release (its payment and order) or another movement (a payout). */
export interface RecoverySource {
  id: string;
  paymentId: string | null;
  orderId: string | null;
}

/**
 * Which of the seller's accounts the kept money leaves: `pending` (seller:<id>, a release's share,
 * the default) or `available` (seller_available:<id>, a scheduled seller's payout: docs/payouts.md).
 */
export type RecoveryFrom = 'pending' | 'available';

export interface RecoverOwed {
  seller: string;
  currency: string;
  /** At most this much is kept (the share or payout about to be sent); 0 or less recovers nothing. */
  upTo: number;
  source: RecoverySource;
  from?: RecoveryFrom;
  now: Date;
}

export interface RestoreRecovered {
  seller: string;
  currency: string;
  amount: number;
  source: RecoverySource;
  /** The account the recovery took it from, where it goes back. */
  from?: RecoveryFrom;
  now: Date;
}

/**
 * Keeps up to `upTo` of what is about to be sent to the seller to pay what they owe in that
 * currency: one `recovery` entry (seller −r, or seller_available −r for a payout; seller_receivables −r), in the caller's transaction,
 * under the seller's debt lock. Answers r (0 when the seller owes nothing); the caller sends the rest.
 */
export async function recoverOwed(tx: Tx, scope: Scope, input: RecoverOwed, post: (entries: readonly NewEntry[]) => Promise<void>): Promise<number> {
  if (input.upTo <= 0) return 0;
  await queries.lockSellerDebt(tx, scope, input.seller);
  const owed = await queries.selectOwed(tx, scope, input.seller, input.currency);
  const recovered = Math.min(owed, input.upTo);
  if (recovered <= 0) return 0;
  await post([debtEntry('recovery', input.seller, input.currency, input.source, input.from ?? 'pending', -recovered)]);
  return recovered;
}

/**
 * A release (or payout) that kept `amount` failed: what it kept is owed again (`recovery_reversal`:
 * seller +a, or seller_available +a for a payout; seller_receivables +a), so the next one recovers it.
 */
export async function restoreRecovered(tx: Tx, scope: Scope, input: RestoreRecovered, post: (entries: readonly NewEntry[]) => Promise<void>): Promise<void> {
  if (input.amount <= 0) return;
  await queries.lockSellerDebt(tx, scope, input.seller);
  await post([debtEntry('recovery_reversal', input.seller, input.currency, input.source, input.from ?? 'pending', input.amount)]);
}

function debtEntry(type: 'recovery' | 'recovery_reversal', seller: string, currency: string, source: RecoverySource, from: RecoveryFrom, amount: number): NewEntry {
  const entry: NewEntry = {
    type,
    currency,
    sourceId: source.id,
    paymentId: source.paymentId,
    orderId: source.orderId,
    sellerId: seller,
    processorRef: null,
    lines: [
      { account: from === 'available' ? availableAccount(seller) : sellerAccount(seller), amount },
      { account: 'seller_receivables', amount },
    ],
  };
  checkEntry(entry);
  return entry;
}

/**
 * First in, first out: every reduction (recoveries, reversals of debts, write-offs) pays the oldest
 * debt first. Answers, per currency, what arose at or before `cutoff` and is still unpaid, and the
 * time the oldest unpaid debt after the cutoff arose (its write-off's start).
 */
export function writeOffDue(lines: readonly ReceivableLineRow[], cutoff: Date): { due: Map<string, number>; nextArisen: Date | null } {
  const due = new Map<string, number>();
  let nextArisen: Date | null = null;
  const currencies = new Set(lines.map((line) => line.currency));
  for (const currency of currencies) {
    const ofCurrency = lines.filter((line) => line.currency === currency);
    let paid = ofCurrency.reduce((sum, line) => sum + (line.amount < 0 ? -line.amount : 0), 0);
    for (const line of ofCurrency) {
      if (line.amount <= 0) continue;
      const unpaid = Math.max(0, line.amount - paid);
      paid = Math.max(0, paid - line.amount);
      if (unpaid === 0) continue;
      if (line.created_at.getTime() <= cutoff.getTime()) due.set(currency, (due.get(currency) ?? 0) + unpaid);
      else if (nextArisen === null || line.created_at < nextArisen) nextArisen = line.created_at;
    }
  }
  return { due, nextArisen };
}

/**
 * A debt of the seller arose at `now`: its write-off timer is set `seller_debt_write_off_days` on
 * (none when the mode never writes off). One timer per seller and due time (its subject), so a
 * later debt never moves an earlier one's.
 */
export async function scheduleWriteOff(tx: Tx, scope: Scope, sellerId: string, now: Date): Promise<void> {
  const days = (await loadSettings(tx, scope)).seller_debt_write_off_days;
  if (days === null) return;
  const at = new Date(now.getTime() + days * DAY_MS);
  await scheduleTimer(tx, scope, SELLER_DEBT_WRITE_OFF_TIMER, `${sellerId}@${at.toISOString()}`, at);
}

/**
 * The write-off timer: what the seller still owes of debts older than the mode's days goes to
 * platform_losses (`seller_debt_write_off`: seller_receivables −x, platform_losses +x, no payment),
 * per currency. A debt left for later (the setting grew since) gets a timer of its own.
 */
export async function writeOffTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date, post: (entries: readonly NewEntry[]) => Promise<void>): Promise<void> {
  const sellerId = timer.subjectId.split('@')[0]!;
  const days = (await loadSettings(tx, scope)).seller_debt_write_off_days;
  if (days === null) return;
  await queries.lockSellerDebt(tx, scope, sellerId);
  const lines = await queries.selectReceivableLines(tx, scope, sellerId);
  const { due, nextArisen } = writeOffDue(lines, new Date(now.getTime() - days * DAY_MS));
  const entries: NewEntry[] = [...due].filter(([, amount]) => amount > 0).map(([currency, amount]) => ({
    type: 'seller_debt_write_off',
    currency,
    sourceId: sellerId,
    paymentId: null,
    orderId: null,
    sellerId,
    processorRef: null,
    lines: [
      { account: 'seller_receivables', amount: -amount },
      { account: 'platform_losses', amount },
    ],
  }));
  await post(entries);
  if (nextArisen !== null) {
    const at = new Date(nextArisen.getTime() + days * DAY_MS);
    if (`${sellerId}@${at.toISOString()}` !== timer.subjectId) await scheduleTimer(tx, scope, SELLER_DEBT_WRITE_OFF_TIMER, `${sellerId}@${at.toISOString()}`, at);
  }
}
