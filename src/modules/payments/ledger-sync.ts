// The payments' side of the ledger (docs/ledger.md): after every move of a payment, refund or
// release, in its transaction with the payment row locked, the ledger is brought to the payment's
// target positions (positions.ts) by entries that each move one account and the seller's; a card
// dispute's moves write their own explicit entries.
import type { Queryable, Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { availableAccount, findDisputeEntryTypes, findPaymentPositions, postEntries, sellerAccount, type Account, type EntryType, type NewEntry } from '../ledger/index.js';
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
  account: 'buyer_funds' | 'platform_fees' | 'refunds_out' | 'transfers_out' | 'platform_losses';
  /** The entry type when the account grows, and when it shrinks. */
  up: EntryType;
  down: (cause: LedgerCause) => EntryType;
}

// In the order the entries of one sync are written: charge, fee, refund, fee refund, transfer, shortfall.
const RULES: readonly AccountRule[] = [
  { position: 'charged', account: 'buyer_funds', up: 'charge', down: () => 'charge_reversal' },
  { position: 'refunded', account: 'refunds_out', up: 'refund', down: () => 'refund_failure' },
  { position: 'fees', account: 'platform_fees', up: 'platform_fee', down: () => 'platform_fee_refund' },
  { position: 'transferred', account: 'transfers_out', up: 'transfer', down: (cause) => (cause.kind === 'release_failed' ? 'transfer_failure' : 'transfer_reversal') },
  { position: 'losses', account: 'platform_losses', up: 'shortfall', down: () => 'shortfall_reversal' },
];
const TYPE_ORDER: readonly EntryType[] = ['charge', 'charge_reversal', 'platform_fee', 'refund', 'refund_failure', 'platform_fee_refund', 'transfer', 'transfer_reversal', 'transfer_failure', 'shortfall', 'shortfall_reversal'];

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
  account === 'buyer_funds' || account === 'platform_losses' ? amount : -amount;

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

/**
 * Writes the entries a card dispute's status calls for and it does not have yet (each at most once
 * per dispute), in the transaction that records the dispute's change, with the dispute row locked.
 */
export async function syncCardDisputeLedger(tx: Tx, scope: Scope, dispute: CardDisputeRow, now: Date): Promise<void> {
  if (dispute.amount <= 0) return;
  const due = dueDisputeEntryTypes(dispute.status);
  if (due.length === 0) return;
  const payment = await queries.selectPayment(tx, scope, dispute.payment_id);
  if (!payment) return;
  const written = await findDisputeEntryTypes(tx, scope, payment.id, dispute.id);
  const entries: NewEntry[] = due
    .filter((type) => !written.has(type))
    .map((type) => ({
      type,
      currency: payment.currency,
      sourceId: dispute.id,
      paymentId: payment.id,
      orderId: payment.order_id,
      sellerId: payment.seller_id,
      processorRef: dispute.processor_dispute,
      lines: DISPUTE_LINES[type as keyof typeof DISPUTE_LINES](dispute.amount),
    }));
  await postEntries(tx, scope, now, entries);
}

/** What is wrong with a card dispute's entries against its status: the due types missing, the others present. */
export async function cardDisputeLedgerDrift(q: Queryable, scope: Scope, dispute: CardDisputeRow): Promise<{ missing: EntryType[]; unexpected: string[] }> {
  const due = dispute.amount > 0 ? dueDisputeEntryTypes(dispute.status) : [];
  const written = await findDisputeEntryTypes(q, scope, dispute.payment_id, dispute.id);
  return { missing: due.filter((type) => !written.has(type)), unexpected: [...written].filter((type) => !(due as string[]).includes(type)) };
}
