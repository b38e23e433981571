// The simulated processor's driver (test mode only, the embedded default). Nothing leaves the
// process: its checkout and onboarding pages are served by this service (checkout-page.ts,
// onboarding-page.ts beside this file), transfers and refunds settle at once and are kept in its
// books (books.ts), and the test helpers of contract 15 stand in for its webhooks.
//
// Like a real processor it is idempotent: every id it answers is derived from the call's
// idempotency key, so a retried call answers the same object again and nothing happens twice.
// It declines transfers and reversals to a seller whose payouts are not enabled, which is how
// tests provoke a failed release or a failed reversal.
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../../ids.js';
import { ProcessorDeclined, type CallContext, type ProcessorDriver, type SimulatedRecords } from '../../../contracts/processor.js';

// The hosted pages act without an API key (Pay, Decline, Complete onboarding), so their URL is a
// capability: beside the id (which is not secret: ids minted together differ by little) it
// carries a random token of 32 base62 characters (190 bits), minted here with the URL. The URL is
// stored whole where the service keeps what it handed out (the payment's checkout_url, the
// onboarding link's url), so a page checks the token it is given against that one, in constant
// time, and answers 404 without it or with another one. See docs/payments.md.
const PAGE_TOKEN_LENGTH = 32;
const PAGE_TOKEN = /^[0-9A-Za-z]{32}$/;

export const simulatedOnboardingPath = (linkId: string, token: string) => `/simulated/onboarding/${linkId}/${token}`;
export const simulatedCheckoutPath = (paymentId: string, token: string) => `/simulated/checkout/${paymentId}/${token}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * True when `given` is the token of the page URL this processor handed out for `id` (`stored`,
 * kept by the payment or the link). Both are hashed first, so the comparison takes the same time
 * whatever the lengths; a stored URL without a token (made before tokens existed) matches nothing.
 */
export function simulatedPageTokenMatches(kind: 'checkout' | 'onboarding', id: string, stored: string | null, given: string): boolean {
  if (stored === null) return false;
  let segments: string[];
  try {
    segments = new URL(stored).pathname.split('/');
  } catch {
    return false;
  }
  const [, simulated, page, storedId, token, ...rest] = segments;
  if (simulated !== 'simulated' || page !== kind || storedId !== id || token === undefined || rest.length > 0 || !PAGE_TOKEN.test(token)) return false;
  return timingSafeEqual(sha256(token), sha256(given));
}

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

/** The books every simulated call that moves money writes to (the call context carries them). */
function booksOf(ctx: CallContext): SimulatedRecords {
  if (!ctx.records) throw new Error('The simulated processor keeps its records in the database: the call context must carry them.');
  return ctx.records;
}

export const simulatedProcessor: ProcessorDriver = {
  provider: 'simulated',
  async startOnboarding(ctx, { linkId, account }) {
    return { account: account ?? newSimulatedAccount(), url: `${ctx.publicUrl}${simulatedOnboardingPath(linkId, randomBase62(PAGE_TOKEN_LENGTH))}` };
  },
  async startPayment(ctx, input) {
    const paymentIntent = idFor('pi', input.idempotencyKey);
    if (input.method === 'payment_intent') {
      return { paymentIntent, checkoutSession: null, checkoutUrl: null, clientSecret: `${paymentIntent}_secret_${idFor('cs', input.paymentId).slice(7)}` };
    }
    return {
      paymentIntent,
      checkoutSession: idFor('cs', input.idempotencyKey),
      checkoutUrl: `${ctx.publicUrl}${simulatedCheckoutPath(input.paymentId, randomBase62(PAGE_TOKEN_LENGTH))}`,
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
