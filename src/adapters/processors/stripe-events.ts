// Stripe's webhooks, read: the signature checked with the SDK, then each event turned into the
// processor reports the payments module handles (src/contracts/processor.ts). Events that say
// nothing the service acts on answer no report, so Stripe can send any event type here.
import Stripe from 'stripe';
import { ProcessorEventRejected, type ProcessorEvents, type ProcessorReport } from '../../contracts/processor.js';
import { refundStatusOf } from './stripe.js';

/** Stripe's own default: a signed event older than five minutes is refused as a possible replay. */
const TOLERANCE_SECONDS = 300;

/** Why an incoming webhook was refused: its signature header is missing, wrong, stale or the body was changed. */
export class StripeEventRejected extends ProcessorEventRejected {
  constructor(message: string) {
    super(message);
    this.name = 'StripeEventRejected';
  }
}

/** The event, once its `Stripe-Signature` verifies against the body exactly as received. */
export function verifyStripeEvent(rawBody: string | Buffer, signatureHeader: string | undefined, webhookSecret: string, nowSeconds?: number): Stripe.Event {
  if (signatureHeader === undefined || signatureHeader.trim() === '') {
    throw new StripeEventRejected('The Stripe-Signature header is missing.');
  }
  try {
    // receivedAt is in milliseconds (the SDK divides by 1000).
    return Stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, TOLERANCE_SECONDS, undefined, nowSeconds === undefined ? undefined : nowSeconds * 1000);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StripeEventRejected(`The Stripe-Signature header does not verify for this body: ${reason}`);
  }
}

/** The id of an expandable field (an id, or the object when expanded). */
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

const paymentOf = (metadata: Stripe.Metadata | null | undefined) => metadata?.payment ?? null;

function refundReport(refund: Stripe.Refund): ProcessorReport {
  return {
    type: 'refund_updated',
    paymentIntent: idOf(refund.payment_intent),
    charge: idOf(refund.charge),
    refund: refund.id,
    amount: refund.amount,
    status: refundStatusOf(refund.status),
    failureReason: refund.failure_reason ?? null,
    // Null for a refund made in Stripe's dashboard: the payments module matches it by charge.
    refundId: refund.metadata?.refund ?? null,
  };
}

function sessionSucceeded(session: Stripe.Checkout.Session): ProcessorReport {
  return {
    type: 'payment_succeeded',
    paymentId: paymentOf(session.metadata),
    paymentIntent: idOf(session.payment_intent),
    checkoutSession: session.id,
    charge: null,
    amount: session.amount_total ?? null,
    currency: session.currency ?? null,
  };
}

function disputeReport(dispute: Stripe.Dispute): ProcessorReport {
  const dueBy = dispute.evidence_details?.due_by ?? null;
  return {
    type: 'card_dispute',
    dispute: dispute.id,
    charge: idOf(dispute.charge),
    paymentIntent: idOf(dispute.payment_intent),
    amount: dispute.amount,
    reason: dispute.reason,
    status: dispute.status,
    evidenceDueBy: dueBy === null ? null : new Date(dueBy * 1000),
  };
}

export function reportsOfStripeEvent(event: Stripe.Event): ProcessorReport[] {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      // A delayed method (bank debit) completes the session unpaid; async_payment_succeeded follows.
      return session.payment_status === 'paid' ? [sessionSucceeded(session)] : [];
    }
    case 'checkout.session.async_payment_succeeded':
      return [sessionSucceeded(event.data.object)];
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      return [{ type: 'payment_failed', paymentId: paymentOf(session.metadata), paymentIntent: idOf(session.payment_intent), checkoutSession: session.id, message: 'The payment failed.' }];
    }
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      return [{
        type: 'payment_succeeded',
        paymentId: paymentOf(intent.metadata),
        paymentIntent: intent.id,
        checkoutSession: null,
        charge: idOf(intent.latest_charge),
        amount: intent.amount_received ?? null,
        currency: intent.currency ?? null,
      }];
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      return [{
        type: 'payment_failed',
        paymentId: paymentOf(intent.metadata),
        paymentIntent: intent.id,
        checkoutSession: null,
        message: intent.last_payment_error?.message ?? 'The payment failed.',
      }];
    }
    // Since API 2022-11-15 a charge lists its refunds only when expanded; the refund.* events carry each one.
    case 'charge.refunded':
      return (event.data.object.refunds?.data ?? []).map(refundReport);
    case 'charge.refund.updated':
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
      return [refundReport(event.data.object)];
    case 'account.updated': {
      const account = event.data.object;
      // A recipient account is paid by transfers: it can be paid once that capability is active.
      return [{
        type: 'account_updated',
        account: account.id,
        payoutsEnabled: account.capabilities?.transfers === 'active',
        restricted: Boolean(account.requirements?.disabled_reason),
      }];
    }
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
      return [disputeReport(event.data.object)];
    // Transfers and reversals with a source_transaction settle when created: a refusal comes back
    // on the call (ProcessorDeclined), and the SDK has no transfer or reversal failure event.
    default:
      return [];
  }
}

/** Stripe's webhooks for the hooks (src/contracts/processor.ts): verified, then read into reports when asked. */
export const stripeEvents: ProcessorEvents = {
  verify(rawBody, signature, secret) {
    const event = verifyStripeEvent(rawBody, signature, secret);
    return { id: event.id, livemode: event.livemode, reports: () => reportsOfStripeEvent(event) };
  },
};
