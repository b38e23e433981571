// What the fake Stripe server accepts of each call, tied to the SDK's own parameter types at
// compile time: `allowed` may only name parameters the SDK declares for that call (a subset; a
// misspelt or invented name does not compile), and `required` must name exactly the parameters the
// SDK type makes required (one missing or extra does not compile). So the fake checks the driver
// against Stripe's published API, not against a copy of what the driver sends.
import type Stripe from 'stripe';

/** The keys of P that are not optional. */
type RequiredKeys<P> = { [K in keyof P]-?: object extends Pick<P, K> ? never : K }[keyof P] & string;

/** L when it lists every required key of P; otherwise a type naming the ones it leaves out. */
type AllRequired<P, L extends readonly string[]> = [Exclude<RequiredKeys<P>, L[number]>] extends [never] ? L : { missing: Exclude<RequiredKeys<P>, L[number]> };

export interface ParamRules {
  allowed: readonly string[];
  required: readonly string[];
}

/** The rules of one call whose parameters the SDK types as P. */
export const paramsOf =
  <P>() =>
  <const A extends readonly (keyof P & string)[], const R extends readonly RequiredKeys<P>[]>(rules: { allowed: A; required: R & AllRequired<P, R> }): ParamRules =>
    rules;

export const PARAMS = {
  accounts: paramsOf<Stripe.AccountCreateParams>()({
    allowed: ['controller', 'capabilities', 'tos_acceptance', 'metadata', 'country', 'email', 'business_type', 'business_profile', 'type'],
    required: [],
  }),
  account_links: paramsOf<Stripe.AccountLinkCreateParams>()({
    allowed: ['account', 'type', 'return_url', 'refresh_url', 'collect', 'collection_options'],
    required: ['account', 'type'],
  }),
  checkout_sessions: paramsOf<Stripe.Checkout.SessionCreateParams>()({
    allowed: ['mode', 'line_items', 'success_url', 'cancel_url', 'client_reference_id', 'metadata', 'payment_intent_data', 'customer_email', 'expires_at'],
    required: [],
  }),
  checkout_session_expire: paramsOf<Stripe.Checkout.SessionExpireParams>()({ allowed: [], required: [] }),
  payment_intents: paramsOf<Stripe.PaymentIntentCreateParams>()({
    allowed: ['amount', 'currency', 'transfer_group', 'metadata', 'automatic_payment_methods', 'description'],
    required: ['amount', 'currency'],
  }),
  payment_intent_cancel: paramsOf<Stripe.PaymentIntentCancelParams>()({ allowed: ['cancellation_reason'], required: [] }),
  refunds: paramsOf<Stripe.RefundCreateParams>()({
    allowed: ['payment_intent', 'charge', 'amount', 'reason', 'metadata'],
    required: [],
  }),
  transfers: paramsOf<Stripe.TransferCreateParams>()({
    allowed: ['amount', 'currency', 'destination', 'source_transaction', 'transfer_group', 'metadata', 'description'],
    required: ['currency', 'destination'],
  }),
  transfer_reversals: paramsOf<Stripe.TransferCreateReversalParams>()({
    allowed: ['amount', 'metadata', 'description', 'refund_application_fee'],
    required: [],
  }),
  balance_transactions_list: paramsOf<Stripe.BalanceTransactionListParams>()({
    allowed: ['created', 'limit', 'starting_after', 'ending_before', 'type', 'source', 'currency'],
    required: [],
  }),
  transfers_list: paramsOf<Stripe.TransferListParams>()({
    allowed: ['created', 'limit', 'starting_after', 'ending_before', 'destination', 'transfer_group'],
    required: [],
  }),
  transfer_reversals_list: paramsOf<Stripe.TransferListReversalsParams>()({
    allowed: ['limit', 'starting_after', 'ending_before'],
    required: [],
  }),
} satisfies Record<string, ParamRules>;

export type FakeKind = keyof typeof PARAMS;
