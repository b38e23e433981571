// The payments' side of the ledger (docs/ledger.md): after every move of a payment, refund or
// release, in its transaction with the payment row locked, the ledger is brought to the payment's
// target positions (positions.ts) by entries that each move one account and the seller's; a card
// dispute's moves write their own explicit entries.
import type { Queryable, Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { availableAccount, findDisputeEntryTypes, findPaymentPositions, postEntries, sellerAccount, type Account, type EntryType, type NewEntry } from '../ledger/index.js';
import { loadSettings } from '../marketplaces/index.js';
import { sellerShare } from './money.js';
import { targetPositions, type Positions } from './positions.js';
import * as queries from './queries.js';
import type { CardDisputeRow, PaymentRow, RefundRow } from './queries.js';

/**
 * What caused a sync: the payment itself (its charge, its fee, its transfer), the release failing
 * after it was made (with the transfer it had), or one of its refunds.
 */
export type LedgerCause = { kind: 'payment' } | { kind: 'release_failed'; transfer: string | null } | { kind: 'refund'; refund: RefundRow };

interface AccountRule {
  position: keyof Positions;
  account: 'buyer_funds' | 'platform_fees' | 'refunds_out' | 'transfers_out' | 'platform_losses' | 'seller_receivables';
  /** The entry type when the account grows, and when it shrinks. */
  up: EntryType;
  down: (cause: LedgerCause) => EntryType;
}

// In the order the entries of one sync are written: charge, fee, refund, fee refund, transfer, shortfall or seller debt.
const RULES: readonly AccountRule[] = [
  { position: 'charged', account: 'buyer_funds', up: 'charge', down: () => 'charge_reversal' },
  { position: 'refunded', account: 'refunds_out', up: 'refund', down: () => 'refund_failure' },
  { position: 'fees', account: 'platform_fees', up: 'platform_fee', down: () => 'platform_fee_refund' },
  { position: 'transferred', account: 'transfers_out', up: 'transfer', down: (cause) => (cause.kind === 'release_failed' ? 'transfer_failure' : 'transfer_reversal') },
  { position: 'losses', account: 'platform_losses', up: 'shortfall', down: () => 'shortfall_reversal' },
  { position: 'debt', account: 'seller_receivables', up: 'seller_debt', down: () => 'seller_debt_reversal' },
];
const TYPE_ORDER: readonly EntryType[] = [
  'charge', 'charge_reversal', 'platform_fee', 'refund', 'refund_failure', 'platform_fee_refund', 'transfer', 'transfer_reversal', 'transfer_failure',
  'shortfall', 'shortfall_reversal', 'seller_debt', 'seller_debt_reversal',
];

const chargeRef = (payment: PaymentRow): string | null => payment.processor_charge ?? payment.processor_payment_intent;

function processorRefOf(type: EntryType, payment: PaymentRow, cause: LedgerCause): string | null {
  const refund = cause.kind === 'refund' ? cause.refund : null;
  switch (type) {
    case 'charge':
    case 'charge_reversal':
    case 'platform_fee':
      return chargeRef(payment);
    case 'refund':
    case 'refund_failure':
    case 'platform_fee_refund':
      return refund?.processor_refund ?? null;
    case 'transfer':
      return payment.processor_transfer;
    case 'transfer_failure':
      return cause.kind === 'release_failed' ? cause.transfer : null;
    default:
      return refund?.processor_transfer_reversal ?? null;
  }
}

/** The seller's line that balances a line of `amount` on `account`: same sign on a debit account, opposite on a credit one. */
const balancingSellerAmount = (account: AccountRule['account'], amount: number): number =>
  account === 'buyer_funds' || account === 'platform_losses' || account === 'seller_receivables' ? amount : -amount;

/** The entries that bring `current` (the ledger's balances by account) to the payment's targets. */
export function entriesToTargets(payment: PaymentRow, refunds: readonly RefundRow[], current: ReadonlyMap<string, number>, cause: LedgerCause): NewEntry[] {
  if (payment.order_id === null || payment.seller_id === null) return []; // a checkout's charge: its shares hold the money
  const targets = targetPositions(payment, refunds);
  // A share moved to a scheduled seller's balance: what changes it after (refunds) changes what is available.
  const seller = payment.release_status === 'in_balance' ? availableAccount(payment.seller_id) : sellerAccount(payment.seller_id);
  const entries: NewEntry[] = [];
  for (const rule of RULES) {
    const delta = targets[rule.position] - (current.get(rule.account) ?? 0);
    if (delta === 0) continue;
    const type = delta > 0 ? rule.up : rule.down(cause);
    const lines: Array<{ account: Account; amount: number }> = [
      { account: rule.account, amount: delta },
      { account: seller, amount: balancingSellerAmount(rule.account, delta) },
    ];
    entries.push({
      type,
      currency: payment.currency,
      sourceId: cause.kind === 'refund' ? cause.refund.id : payment.id,
      paymentId: payment.id,
      orderId: payment.order_id,
      sellerId: payment.seller_id,
      processorRef: processorRefOf(type, payment, cause),
      lines,
    });
  }
  return entries.sort((a, b) => TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type));
}

/**
 * Brings the ledger to the payment's positions: called in the transaction of every move, with the
 * payment row locked (so two syncs of one payment never interleave). Reads the payment as it is now.
 */
export async function syncPaymentLedger(tx: Tx, scope: Scope, paymentId: string, cause: LedgerCause, now: Date): Promise<void> {
  const payment = await queries.selectPayment(tx, scope, paymentId);
  if (!payment || payment.order_id === null) return;
  const [refunds, current] = await Promise.all([queries.selectRefundsOfPayment(tx, scope, paymentId), findPaymentPositions(tx, scope, paymentId)]);
  const fresh = cause.kind === 'refund' ? { kind: 'refund' as const, refund: refunds.find((refund) => refund.id === cause.refund.id) ?? cause.refund } : cause;
  await postEntries(tx, scope, now, entriesToTargets(payment, refunds, current, fresh));
}

/**
 * The share of a payment whose release moved to the seller's balance (in_balance): what the seller
 * account holds of it (its charge less its fee and refunds) moves to the available account, one
 * `share_available` entry naming the payment. Later syncs post on the available account.
 */
export async function moveShareToAvailable(tx: Tx, scope: Scope, payment: PaymentRow, now: Date): Promise<void> {
  if (payment.order_id === null || payment.seller_id === null) return;
  const current = await findPaymentPositions(tx, scope, payment.id);
  const share = current.get(sellerAccount(payment.seller_id)) ?? 0;
  if (share === 0) return;
  await postEntries(tx, scope, now, [{
    type: 'share_available',
    currency: payment.currency,
    sourceId: payment.id,
    paymentId: payment.id,
    orderId: payment.order_id,
    sellerId: payment.seller_id,
    processorRef: null,
    lines: [{ account: sellerAccount(payment.seller_id), amount: -share }, { account: availableAccount(payment.seller_id), amount: share }],
  }]);
}

/** How far a payment's ledger is from its targets (the invariants job): the entries a sync would write. */
export async function paymentLedgerDrift(q: Queryable, scope: Scope, paymentId: string): Promise<NewEntry[]> {
  const payment = await queries.selectPayment(q, scope, paymentId);
  if (!payment || payment.order_id === null) return [];
  const [refunds, current] = await Promise.all([queries.selectRefundsOfPayment(q, scope, paymentId), findPaymentPositions(q, scope, paymentId)]);
  return entriesToTargets(payment, refunds, current, { kind: 'payment' });
}

const WITHDRAWN = new Set(['needs_response', 'under_review', 'won', 'lost']);

/** The card-dispute entries a dispute's status calls for: funds withdrawn, then won or lost. */
export function dueDisputeEntryTypes(status: string): EntryType[] {
  if (!WITHDRAWN.has(status)) return [];
  if (status === 'won') return ['dispute', 'dispute_won'];
  if (status === 'lost') return ['dispute', 'dispute_lost'];
  return ['dispute'];
}

const DISPUTE_LINES: Record<'dispute' | 'dispute_won' | 'dispute_lost', (x: number) => Array<{ account: Account; amount: number }>> = {
  dispute: (x) => [{ account: 'buyer_funds', amount: -x }, { account: 'disputes', amount: x }],
  dispute_won: (x) => [{ account: 'disputes', amount: -x }, { account: 'buyer_funds', amount: x }],
  dispute_lost: (x) => [{ account: 'disputes', amount: -x }, { account: 'platform_losses', amount: x }],
};

/** The payments a dispute's entries may name: its payment, and a checkout charge's shares (their lost entries). */
async function disputePayments(q: Queryable, scope: Scope, payment: PaymentRow): Promise<PaymentRow[]> {
  if (payment.order_id !== null) return [payment];
  const shares = await queries.selectShareIds(q, scope, payment.id);
  const rows = await Promise.all(shares.map((id) => queries.selectPayment(q, scope, id)));
  return [payment, ...rows.filter((row): row is PaymentRow => row !== null)];
}

/**
 * A lost dispute whose seller owes their part (seller_debt_write_off_days not 0): per order's
 * payment (a checkout charge's amount split over its shares by their amounts, cumulative rounding
 * down), `dispute_lost` of disputes −x, seller_receivables +s (the seller's share of x, as a refund
 * of x would take it) and platform_fees −(x − s) (the fee's part goes back, as with a refund).
 */
export function lostDisputeOwedEntries(payment: PaymentRow, shares: readonly PaymentRow[], dispute: CardDisputeRow): NewEntry[] {
  const parts: Array<{ row: PaymentRow; x: number }> = [];
  if (payment.order_id !== null) parts.push({ row: payment, x: dispute.amount });
  else {
    const total = shares.reduce((sum, share) => sum + share.amount, 0);
    let before = 0;
    let cumulative = 0;
    for (const share of shares) {
      cumulative += share.amount;
      const upTo = total === 0 ? 0 : Number((BigInt(dispute.amount) * BigInt(cumulative)) / BigInt(total));
      parts.push({ row: share, x: upTo - before });
      before = upTo;
    }
  }
  return parts
    .filter((part) => part.x > 0)
    .map(({ row, x }) => {
      const refunded = Math.min(row.amount, row.amount_refunded);
      const owed = Math.min(x, sellerShare(row.subtotal, row.amount, refunded) - sellerShare(row.subtotal, row.amount, Math.min(row.amount, refunded + x)));
      const lines: Array<{ account: Account; amount: number }> = [{ account: 'disputes', amount: -x }];
      if (owed > 0) lines.push({ account: 'seller_receivables', amount: owed });
      if (x - owed > 0) lines.push({ account: 'platform_fees', amount: -(x - owed) });
      return { type: 'dispute_lost' as const, currency: row.currency, sourceId: dispute.id, paymentId: row.id, orderId: row.order_id, sellerId: row.seller_id, processorRef: dispute.processor_dispute, lines };
    });
}

/**
 * Writes the entries a card dispute's status calls for and it does not have yet (each at most once
 * per dispute), in the transaction that records the dispute's change, with the dispute row locked.
 * A lost one is the platform's loss when the mode writes sellers' debts off at once (0 days), else
 * the sellers owe their part (lostDisputeOwedEntries).
 */
export async function syncCardDisputeLedger(tx: Tx, scope: Scope, dispute: CardDisputeRow, now: Date): Promise<void> {
  if (dispute.amount <= 0) return;
  const due = dueDisputeEntryTypes(dispute.status);
  if (due.length === 0) return;
  const payment = await queries.selectPayment(tx, scope, dispute.payment_id);
  if (!payment) return;
  const payments = await disputePayments(tx, scope, payment);
  const written = await findDisputeEntryTypes(tx, scope, payments.map((row) => row.id), dispute.id);
  const entries: NewEntry[] = [];
  for (const type of due.filter((type) => !written.has(type))) {
    if (type === 'dispute_lost' && (await loadSettings(tx, scope)).seller_debt_write_off_days !== 0) {
      entries.push(...lostDisputeOwedEntries(payment, payments.slice(1), dispute));
      continue;
    }
    entries.push({
      type,
      currency: payment.currency,
      sourceId: dispute.id,
      paymentId: payment.id,
      orderId: payment.order_id,
      sellerId: payment.seller_id,
      processorRef: dispute.processor_dispute,
      lines: DISPUTE_LINES[type as keyof typeof DISPUTE_LINES](dispute.amount),
    });
  }
  await postEntries(tx, scope, now, entries);
}

/** What is wrong with a card dispute's entries against its status: the due types missing, the others present. */
export async function cardDisputeLedgerDrift(q: Queryable, scope: Scope, dispute: CardDisputeRow): Promise<{ missing: EntryType[]; unexpected: string[] }> {
  const due = dispute.amount > 0 ? dueDisputeEntryTypes(dispute.status) : [];
  const payment = await queries.selectPayment(q, scope, dispute.payment_id);
  const ids = payment ? (await disputePayments(q, scope, payment)).map((row) => row.id) : [dispute.payment_id];
  const written = await findDisputeEntryTypes(q, scope, ids, dispute.id);
  return { missing: due.filter((type) => !written.has(type)), unexpected: [...written].filter((type) => !(due as string[]).includes(type)) };
}
