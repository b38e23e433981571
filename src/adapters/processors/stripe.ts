// Stripe Connect on the official SDK (separate charges and transfers): the platform charges the
// buyer (transfer_group = the order id, or the checkout id for a checkout's one charge), then sends the seller's share from that charge with a
// transfer, and takes part of it back with a reversal when a refund comes after release.
//
// Every call passes the idempotency key the payments module derived from our own ids, so a retry
// after a timeout or a crash gets the first call's answer from Stripe and never a second object.
// Sellers get Express-equivalent accounts described by controller properties (Stripe's
// replacement for `type: 'express'`).
import type Stripe from 'stripe';
import { ProcessorDeclined, type ProcessorDriver, type RefundResult } from '../../contracts/processor.js';
import { stripeBalanceRecords } from './stripe-balance.js';
import { callStripe } from './stripe-client.js';

/** A refund's status at Stripe, in the driver's terms: one that waits on the customer is still pending. */
export function refundStatusOf(status: string | null): RefundResult['status'] {
  switch (status) {
    case 'succeeded':
    case 'failed':
    case 'canceled':
      return status;
    default:
      return 'pending';
  }
}

/**
 * Stripe refuses to expire a session or cancel an intent that already ended (expired, canceled,
 * paid). Cancelling is then done, or overtaken: a payment that landed late is refunded by the
 * payments module on its own, so this is not a failure.
 */
function alreadyEnded(error: unknown): boolean {
  if (!(error instanceof ProcessorDeclined)) return false;
  return error.code === 'payment_intent_unexpected_state' || /\b(status|expired|canceled|cancelled|succeeded|complete)\b/i.test(error.message);
}

export const stripeProcessor: ProcessorDriver = {
  provider: 'stripe',

  async startOnboarding(ctx, { linkId, sellerId, account, returnUrl, refreshUrl }) {
    return callStripe(ctx, async (stripe) => {
      let accountId = account;
      if (accountId === null) {
        const params: Stripe.AccountCreateParams = {
          // Express-equivalent: Stripe collects what the law requires, the platform pays Stripe's
          // fees and bears losses, and the seller only receives transfers.
          controller: {
            stripe_dashboard: { type: 'express' },
            fees: { payer: 'application' },
            losses: { payments: 'application' },
            requirement_collection: 'stripe',
          },
          capabilities: { transfers: { requested: true } },
          // A recipient agreement: the seller is paid by the platform, never charges anyone itself.
          tos_acceptance: { service_agreement: 'recipient' },
          metadata: { seller: sellerId },
        };
        // Keyed by the seller: two links made at once (or a retry) open one account, not two.
        accountId = (await stripe.accounts.create(params, { idempotencyKey: `seller-account-${sellerId}` })).id;
      }
      const link = await stripe.accountLinks.create(
        { account: accountId, type: 'account_onboarding', return_url: returnUrl, refresh_url: refreshUrl },
        { idempotencyKey: `onboarding-link-${linkId}` },
      );
      return { account: accountId, url: link.url };
    });
  },

  async startPayment(ctx, input) {
    // A checkout's charge is grouped by the checkout: each order's transfer names the same group.
    const group = input.checkoutId ?? input.orderId ?? input.paymentId;
    const metadata: Record<string, string> = input.checkoutId !== null ? { payment: input.paymentId, checkout: input.checkoutId } : { payment: input.paymentId, order: group };
    const currency = input.currency.toLowerCase();
    if (input.method === 'payment_intent') {
      const intent = await callStripe(ctx, (stripe) =>
        stripe.paymentIntents.create(
          { amount: input.amount, currency, transfer_group: group, metadata, automatic_payment_methods: { enabled: true } },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { paymentIntent: intent.id, checkoutSession: null, checkoutUrl: null, clientSecret: intent.client_secret };
    }
    if (input.successUrl === null || input.cancelUrl === null) {
      throw new ProcessorDeclined('Stripe Checkout needs a page to return the buyer to: checkout_success_url must be set.', 'checkout_url_missing');
    }
    const { successUrl, cancelUrl } = input;
    // A checkout's charge shows one line per order; an order's payment one line, its description.
    const lineItems = input.lineItems === null
      ? [{ quantity: 1, price_data: { currency, unit_amount: input.amount, product_data: { name: input.description } } }]
      : input.lineItems.map((item) => ({
          quantity: 1,
          price_data: {
            currency,
            unit_amount: item.amount,
            product_data: { name: `Order ${item.order}`, metadata: { order: item.order, ...(item.listing === null ? {} : { listing: item.listing }) } },
          },
        }));
    const session = await callStripe(ctx, (stripe) =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: lineItems,
          success_url: successUrl,
          cancel_url: cancelUrl,
          client_reference_id: group,
          metadata,
          // The charge carries the order (or checkout) too: transfers to the sellers are grouped by it.
          payment_intent_data: { transfer_group: group, metadata },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    const intent = session.payment_intent;
    return {
      paymentIntent: typeof intent === 'string' ? intent : (intent?.id ?? null),
      checkoutSession: session.id,
      checkoutUrl: session.url,
      clientSecret: null,
    };
  },

  async cancelPayment(ctx, { paymentIntent, checkoutSession, idempotencyKey }) {
    try {
      await callStripe(ctx, async (stripe) => {
        if (checkoutSession !== null) await stripe.checkout.sessions.expire(checkoutSession, {}, { idempotencyKey });
        else if (paymentIntent !== null) await stripe.paymentIntents.cancel(paymentIntent, {}, { idempotencyKey });
      });
    } catch (error) {
      if (!alreadyEnded(error)) throw error;
    }
  },

  async refund(ctx, input) {
    const refund = await callStripe(ctx, (stripe) =>
      stripe.refunds.create(
        {
          ...(input.paymentIntent !== null ? { payment_intent: input.paymentIntent } : { charge: input.charge ?? undefined }),
          amount: input.amount,
          ...(input.reason === null ? {} : { reason: input.reason }),
          metadata: { refund: input.refundId, payment: input.paymentId },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return { refund: refund.id, status: refundStatusOf(refund.status), failureReason: refund.failure_reason ?? null };
  },

  async transfer(ctx, input) {
    const transfer = await callStripe(ctx, (stripe) =>
      stripe.transfers.create(
        {
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          destination: input.destination,
          // Drawn on the buyer's charge, so it never waits on (or spends) the platform's balance.
          ...(input.sourceTransaction === null ? {} : { source_transaction: input.sourceTransaction }),
          transfer_group: input.transferGroup,
          metadata: input.payoutId ? { payout: input.payoutId } : { payment: input.paymentId ?? '' },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return { transfer: transfer.id };
  },

  async reverseTransfer(ctx, input) {
    const reversal = await callStripe(ctx, (stripe) =>
      stripe.transfers.createReversal(input.transfer, { amount: input.amount, metadata: { refund: input.refundId } }, { idempotencyKey: input.idempotencyKey }),
    );
    return { reversal: reversal.id };
  },

  listBalanceRecords(ctx, range) {
    return stripeBalanceRecords(ctx, range);
  },
};
