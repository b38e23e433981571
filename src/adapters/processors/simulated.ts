// The simulated processor (test mode only, the embedded default). Nothing leaves the process:
// its checkout and onboarding pages are served by this service (src/modules/payments/routes/
// simulated-checkout.ts, src/modules/onboarding/routes/simulated-page.ts), transfers and refunds
// settle at once, and the test helpers of contract 15 stand in for its webhooks.
//
// Like a real processor it is idempotent: every id it answers is derived from the call's
// idempotency key, so a retried call answers the same object again and nothing happens twice.
// It declines transfers and reversals to a seller whose payouts are not enabled, which is how
// tests provoke a failed release or a failed reversal.
import { createHash } from 'node:crypto';
import { randomBase62 } from '../../ids.js';
import { ProcessorDeclined, type CallContext, type ProcessorDriver, type SimulatedRecords } from '../../contracts/processor.js';

export const simulatedOnboardingPath = (linkId: string) => `/simulated/onboarding/${linkId}`;
export const simulatedCheckoutPath = (paymentId: string) => `/simulated/checkout/${paymentId}`;

export const newSimulatedAccount = () => `acct_sim_${randomBase62(16)}`;

/** `prefix_sim_` and 24 characters fixed by the idempotency key. */
function idFor(prefix: string, idempotencyKey: string): string {
  return `${prefix}_sim_${createHash('sha256').update(idempotencyKey).digest('base64url').replace(/[-_]/g, '').slice(0, 24)}`;
}

function requireEnabled(payouts: string, what: string): void {
  if (payouts !== 'enabled') {
    throw new ProcessorDeclined(`The seller's account cannot receive ${what}: its payouts are ${payouts}.`, 'account_not_enabled');
  }
}

/** The books every simulated call that moves money writes to (the payments module passes them). */
function booksOf(ctx: CallContext): SimulatedRecords {
  if (!ctx.records) throw new Error('The simulated processor keeps its records in the database: the call context must carry them.');
  return ctx.records;
}

export const simulatedProcessor: ProcessorDriver = {
  provider: 'simulated',
  async startOnboarding(ctx, { linkId, account }) {
    return { account: account ?? newSimulatedAccount(), url: `${ctx.publicUrl}${simulatedOnboardingPath(linkId)}` };
  },
  async startPayment(ctx, input) {
    const paymentIntent = idFor('pi', input.idempotencyKey);
    if (input.method === 'payment_intent') {
      return { paymentIntent, checkoutSession: null, checkoutUrl: null, clientSecret: `${paymentIntent}_secret_${idFor('cs', input.paymentId).slice(7)}` };
    }
    return {
      paymentIntent,
      checkoutSession: idFor('cs', input.idempotencyKey),
      checkoutUrl: `${ctx.publicUrl}${simulatedCheckoutPath(input.paymentId)}`,
      clientSecret: null,
    };
  },
  async cancelPayment() {
    // Nothing to expire: the simulated checkout page reads the payment's status.
  },
  async refund(ctx, input) {
    const refund = idFor('re', input.idempotencyKey);
    await booksOf(ctx).record({ reference: refund, type: 'refund', amount: input.amount, currency: input.currency });
    return { refund, status: 'succeeded', failureReason: null };
  },
  async transfer(ctx, input) {
    requireEnabled(input.destinationPayouts, 'transfers');
    const transfer = idFor('tr', input.idempotencyKey);
    await booksOf(ctx).record({ reference: transfer, type: 'transfer', amount: input.amount, currency: input.currency });
    return { transfer };
  },
  async reverseTransfer(ctx, input) {
    requireEnabled(input.destinationPayouts, 'transfer reversals');
    const reversal = idFor('trr', input.idempotencyKey);
    await booksOf(ctx).record({ reference: reversal, type: 'transfer_reversal', amount: input.amount, currency: input.currency });
    return { reversal };
  },
  listBalanceRecords(ctx, range) {
    return booksOf(ctx).list(range);
  },
};
