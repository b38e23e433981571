// What the service asks of a payment processor (docs/payments.md). One driver per provider
// (src/adapters/processors/), assembled by the composition root (src/app/wiring.ts) and picked by
// the mode's processor connection (src/modules/marketplaces/processor-connection.ts).
//
// Every call that moves money takes an idempotency key derived from our own ids (the payment,
// refund or release it serves), so a call retried after a crash, a timeout or a lost answer can
// never charge, transfer or refund twice: the processor answers the first call's result again.
// Calls are made with no database transaction open (src/modules/payments/calls.ts runs them as
// jobs); a driver never touches the database but for the simulated processor's books, which the
// call context carries.
import type { Clock } from '../clock.js';
import type { Db, Queryable, Tx } from '../db/db.js';
import type { Scope } from '../scope.js';

/** The processors a mode can connect to. */
export const PROVIDERS = ['simulated', 'stripe'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A mode's processor connection, decrypted: what a driver call needs to reach its account. */
export type ProcessorCredentials =
  | { provider: 'simulated' }
  | { provider: 'stripe'; secretKey: string; webhookSecret: string; connectWebhookSecret: string | null };

export interface OnboardingStart {
  /** The seller's account at the processor: the one they have, or a new one. */
  account: string;
  /** The processor's onboarding page for this link; the seller is sent there. */
  url: string;
}

/** What every call gets: the mode's credentials, where to reach the processor, and an abort signal (the job's lease). */
export interface CallContext {
  credentials: ProcessorCredentials;
  /** Base of the URLs the service hands out (PUBLIC_URL): the simulated processor's pages live there. */
  publicUrl: string;
  /** STRIPE_API_URL: where the Stripe driver sends its calls instead of api.stripe.com (a local test server). */
  stripeApiUrl?: string | null;
  signal?: AbortSignal;
  /**
   * The simulated processor's books of the mode (its own records, kept in its table): the
   * simulated driver writes what it refunds, transfers and reverses there and reads them back for
   * the reconciliation report. The Stripe driver ignores it.
   */
  records?: SimulatedRecords;
}

/** One movement of money in the processor's own records, as the reconciliation report compares it. */
export interface BalanceRecord {
  /** The processor's object: ch_ (or pi_) of a charge, re_, tr_, trr_ (a transfer reversal), dp_ (a card dispute's withdrawal). */
  reference: string;
  type: 'charge' | 'refund' | 'transfer' | 'transfer_reversal' | 'dispute';
  /** The object's amount, minor units, positive: the type says which way the money went. */
  amount: number;
  /** Lower case, as processors write it. */
  currency: string;
  created: Date;
}

export interface SimulatedRecords {
  /** Records a movement now (mode clock); the same reference twice is kept once. */
  record(record: Omit<BalanceRecord, 'created'>): Promise<void>;
  /** The records created in [from, to), oldest first, read in pages. */
  list(range: { from: Date; to: Date }): AsyncIterable<BalanceRecord>;
}

export interface StartPaymentInput {
  paymentId: string;
  /** The order paid; null for a checkout's charge. */
  orderId: string | null;
  /** The checkout a charge pays for; null for an order's payment. */
  checkoutId: string | null;
  /** What the charge pays for, one item per order (a checkout's charge); null: one item, `description`. */
  lineItems: readonly PaymentLineItem[] | null;
  method: 'checkout_session' | 'payment_intent';
  /** Total to charge (subtotal + fee), minor units. */
  amount: number;
  currency: string;
  /** One line for the buyer's receipt and the checkout page. */
  description: string;
  successUrl: string | null;
  cancelUrl: string | null;
  idempotencyKey: string;
}

export interface PaymentLineItem {
  order: string;
  listing: string | null;
  amount: number;
}

export interface StartedPayment {
  paymentIntent: string | null;
  checkoutSession: string | null;
  checkoutUrl: string | null;
  clientSecret: string | null;
}

export interface RefundInput {
  paymentId: string;
  refundId: string;
  /** The charge's payment intent (Stripe refunds by payment intent). */
  paymentIntent: string | null;
  charge: string | null;
  amount: number;
  /** The payment's currency (the simulated processor's records keep it). */
  currency: string;
  reason: 'requested_by_customer' | 'duplicate' | 'fraudulent' | null;
  idempotencyKey: string;
}

/** A refund's state at the processor right after the call: settled now, or later by a processor event. */
export interface RefundResult {
  refund: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  failureReason: string | null;
}

export interface TransferInput {
  /** The payment whose share it sends (a per-order release); null for a payout. */
  paymentId: string | null;
  orderId: string | null;
  /** The payout it makes (a seller paid on a schedule, docs/payouts.md); null for a release. */
  payoutId?: string | null;
  /** Groups the transfer with its charge: the checkout's id for an order of a checkout, else the order's; a payout's own id. */
  transferGroup: string;
  amount: number;
  currency: string;
  /** The seller's connected account. */
  destination: string;
  /** The charge the money came from: the transfer draws on it, never on the platform's balance; null for a payout (the platform's available balance funds it). */
  sourceTransaction: string | null;
  /** The seller's payouts status as last reported; the simulated processor declines unless `enabled`. */
  destinationPayouts: string;
  idempotencyKey: string;
}

export interface ReverseTransferInput {
  transfer: string;
  refundId: string;
  amount: number;
  /** The transfer's currency (the simulated processor's records keep it). */
  currency: string;
  /** The seller's payouts status as last reported; the simulated processor declines unless `enabled`. */
  destinationPayouts: string;
  idempotencyKey: string;
}

/**
 * A refusal by the processor (card declined, insufficient balance, account cannot receive
 * transfers): recorded as the failure of what was asked, with the processor's message. Any other
 * error (network, 5xx, timeout) is retried with the same idempotency key.
 */
export class ProcessorDeclined extends Error {
  constructor(message: string, readonly code: string | null = null) {
    super(message);
    this.name = 'ProcessorDeclined';
  }
}

/**
 * What a processor reports on its own (Stripe webhooks; the simulated processor's test helpers),
 * in the processor's terms, as the payments module handles it. Each handler is written so order
 * does not matter: the same report twice, or a late one after a later one, ends in the same state.
 */
export type ProcessorReport =
  | {
      type: 'payment_succeeded';
      paymentId: string | null;
      paymentIntent: string | null;
      checkoutSession: string | null;
      charge: string | null;
      /** What the processor says it took, minor units and ISO code (any case); checked against the payment's. Null: not named (then not checked). */
      amount: number | null;
      currency: string | null;
    }
  | { type: 'payment_failed'; paymentId: string | null; paymentIntent: string | null; checkoutSession: string | null; message: string }
  | { type: 'refund_updated'; paymentIntent: string | null; charge: string | null; refund: string; amount: number; status: RefundResult['status']; failureReason: string | null; refundId: string | null }
  | { type: 'account_updated'; account: string; payoutsEnabled: boolean; restricted: boolean }
  | { type: 'transfer_failed'; transfer: string; message: string }
  | { type: 'reversal_failed'; transfer: string; reversal: string; refundId: string | null; message: string }
  | { type: 'card_dispute'; dispute: string; charge: string | null; paymentIntent: string | null; amount: number; reason: string; status: string; evidenceDueBy: Date | null };

/**
 * Settles one processor report in the caller's transaction: the flow src/flows/settle-processor-report.ts
 * (payments records it, orders commits the orders it paid, their checkouts follow). The root hands
 * it to what receives reports below the flows (the simulated processor's test helpers and page).
 * `kick` makes the processor calls the report asks for after the COMMIT, or leaves them to the worker.
 */
export type SettleReport = (tx: Tx, scope: Scope, report: ProcessorReport, now: Date, kick: (tx: Tx, paymentId: string) => void) => Promise<void>;

export interface ProcessorDriver {
  readonly provider: Provider;
  /**
   * Starts a seller's onboarding through link `linkId`: the account to record for the seller
   * (`account` when they have one, else a new Express account) and the page to send them to.
   */
  startOnboarding(ctx: CallContext, input: { linkId: string; sellerId: string; account: string | null; returnUrl: string; refreshUrl: string }): Promise<OnboardingStart>;
  /** Creates the Checkout Session or PaymentIntent for a payment (charged on the platform, transfer_group = the order's or checkout's id). */
  startPayment(ctx: CallContext, input: StartPaymentInput): Promise<StartedPayment>;
  /** The payment is no longer due (order cancelled or expired): expire the session or cancel the intent. */
  cancelPayment(ctx: CallContext, input: { paymentIntent: string | null; checkoutSession: string | null; idempotencyKey: string }): Promise<void>;
  refund(ctx: CallContext, input: RefundInput): Promise<RefundResult>;
  /** Sends the seller's share; answers the transfer id. */
  transfer(ctx: CallContext, input: TransferInput): Promise<{ transfer: string }>;
  /** Takes back part of a transfer for a refund after release; answers the reversal id. */
  reverseTransfer(ctx: CallContext, input: ReverseTransferInput): Promise<{ reversal: string }>;
  /**
   * The processor's own records of the money movements created in [from, to) (the reconciliation
   * report): charges, refunds, card-dispute withdrawals, transfers and their reversals, read in
   * pages as they are iterated.
   */
  listBalanceRecords(ctx: CallContext, range: { from: Date; to: Date }): AsyncIterable<BalanceRecord>;
}


/**
 * The simulated processor beside its driver (src/adapters/processors/simulated/): what its test
 * helpers and hosted pages, which act for it inside the service, ask of it.
 */
export interface SimulatedProcessor {
  /** A new account id at the simulated processor (acct_sim_…), for a seller who has none. */
  newAccount(): string;
  /** Its books of one mode, for a call context: records are stamped with the mode's clock. */
  books(deps: { db: Db; clock: Clock }, scope: Scope): SimulatedRecords;
  /**
   * Records a movement its test helpers report (a charge, a dashboard refund, a card dispute's
   * withdrawal) in the caller's transaction; the same reference twice is kept once.
   */
  recordMovement(q: Queryable, scope: Scope, record: Omit<BalanceRecord, 'created'>, now: Date): Promise<void>;
}

/** Why an incoming processor webhook was refused: its signature is missing, wrong or stale, or the body was changed. */
export class ProcessorEventRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessorEventRejected';
  }
}

/** A processor's webhook event, its signature verified. */
export interface ProcessorEvent {
  id: string;
  livemode: boolean;
  /** What the event says, as reports (none for an event the service does not act on). */
  reports(): ProcessorReport[];
}

/** Reads a processor's signed webhooks (Stripe's: src/adapters/processors/stripe-events.ts). */
export interface ProcessorEvents {
  /** The event, once its signature header verifies with `secret` against the body exactly as received; else ProcessorEventRejected. */
  verify(rawBody: string | Buffer, signature: string | undefined, secret: string): ProcessorEvent;
}
