// The Stripe side of the reconciliation report: the platform's balance transactions of an interval
// (charges and payments, refunds, card-dispute withdrawals) and its transfers with their reversals,
// read through the SDK's auto-pagination (one page of 100 in memory at a time).
// Transfers come from the transfers list rather than from balance transactions: a transfer's
// reversals are listed with it (and paged on when there are more than the embedded ten), and a
// transfer drawn on a charge (source_transaction) shows at once there, whatever its balance
// transaction's availability. A reversal counts in the interval it was made in; a reversal of a
// transfer made before the interval is not read (docs/ledger.md, "Reconciling with Stripe").
import type Stripe from 'stripe';
import type { BalanceRecord, CallContext } from '../../contracts/processor.js';
import { stripeClient } from './stripe-client.js';

const PAGE = 100;

/** The record a balance transaction stands for, or null for the types reconciled elsewhere (transfers) or not at all (fees, payouts). */
export function recordOfBalanceTransaction(txn: Stripe.BalanceTransaction): BalanceRecord | null {
  const source = typeof txn.source === 'string' ? txn.source : (txn.source?.id ?? null);
  if (source === null) return null;
  const base = { reference: source, amount: Math.abs(txn.amount), currency: txn.currency, created: new Date(txn.created * 1000) };
  switch (txn.type) {
    case 'charge':
    case 'payment':
      return { ...base, type: 'charge' };
    case 'refund':
    case 'payment_refund':
      return { ...base, type: 'refund' };
    case 'adjustment':
      return source.startsWith('dp_') || source.startsWith('du_') ? { ...base, type: 'dispute' } : null;
    default:
      return null;
  }
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

export async function* stripeBalanceRecords(ctx: CallContext, range: { from: Date; to: Date }): AsyncGenerator<BalanceRecord> {
  const stripe = stripeClient(ctx);
  const created = { gte: seconds(range.from), lt: seconds(range.to) };
  for await (const txn of stripe.balanceTransactions.list({ created, limit: PAGE })) {
    ctx.signal?.throwIfAborted();
    const record = recordOfBalanceTransaction(txn);
    if (record) yield record;
  }
  const inRange = (at: number) => at >= created.gte && at < created.lt;
  for await (const transfer of stripe.transfers.list({ created, limit: PAGE })) {
    ctx.signal?.throwIfAborted();
    yield { reference: transfer.id, type: 'transfer', amount: transfer.amount, currency: transfer.currency, created: new Date(transfer.created * 1000) };
    const reversals = transfer.reversals.has_more ? stripe.transfers.listReversals(transfer.id, { limit: PAGE }) : transfer.reversals.data;
    for await (const reversal of reversals) {
      if (!inRange(reversal.created)) continue;
      yield { reference: reversal.id, type: 'transfer_reversal', amount: reversal.amount, currency: reversal.currency, created: new Date(reversal.created * 1000) };
    }
  }
}
