// Checkout operations (docs/decisions/checkouts.md). A checkout is made by a flow
// (src/flows/check-out.ts) in one transaction, all or nothing: its orders are checked and their
// units reserved, then its row is written (openCheckout), then its orders, their payment shares
// and their events, then its own events (announceCheckout). Its status afterwards follows its
// orders (follow-orders.ts).
import type { Queryable, Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { emitEvents } from '../../outbox/emit.js';
import type { OperationContext } from '../../contracts/context.js';
import type { Scope } from '../../scope.js';
import { paymentPageUrl } from '../payments/index.js';
import { insertCheckout, selectCheckout, selectCheckouts, updateCheckoutPayment, type CheckoutRow } from './queries.js';
import type { Checkout, CreateCheckoutBody, ListCheckoutsQuery } from './schemas.js';
import { serializeCheckout } from './serialize.js';

/** What a new checkout's row is made of: the request's fields and its orders' sums. */
export interface NewCheckoutValues {
  id: string;
  body: CreateCheckoutBody;
  payments: boolean;
  currency: string;
  subtotal: number;
  feeAmount: number;
  total: number;
  orderIds: readonly string[];
  expiresAt: Date | null;
  now: Date;
}

/** Writes a new checkout's row: `awaiting_payment` with payments on, else `completed`. */
export function openCheckout(tx: Tx, scope: Scope, values: NewCheckoutValues): Promise<CheckoutRow> {
  const { body } = values;
  return insertCheckout(tx, scope, {
    id: values.id,
    buyer_id: body.buyer,
    status: values.payments ? 'awaiting_payment' : 'completed',
    currency: values.currency,
    subtotal: values.subtotal,
    fee_amount: values.feeAmount,
    total: values.total,
    order_ids: [...values.orderIds],
    success_url: body.success_url ?? null,
    cancel_url: body.cancel_url ?? null,
    expires_at: values.expiresAt,
    metadata: body.metadata ?? {},
    created_at: values.now,
  });
}

/** Names the checkout's charge. */
export function setCheckoutPayment(tx: Tx, scope: Scope, id: string, paymentId: string): Promise<CheckoutRow> {
  return updateCheckoutPayment(tx, scope, id, paymentId);
}

/**
 * The new checkout's events: checkout.created, and checkout.completed with payments off (its
 * orders were made committed); answers the checkout.
 */
export async function announceCheckout(tx: Tx, scope: Scope, row: CheckoutRow, now: Date): Promise<Checkout> {
  const checkout = serializeCheckout(row, null);
  await emitEvents(tx, scope, now, row.status === 'awaiting_payment' ? [{ type: 'checkout.created', object: checkout }] : [
    { type: 'checkout.created', object: checkout },
    { type: 'checkout.completed', object: checkout },
  ]);
  return checkout;
}

/**
 * The created checkout with its charge's page. The processor makes the page in the start call,
 * right after the COMMIT, so it is read after it: here after the operation's own COMMIT, and under
 * an Idempotency-Key (whose transaction commits later) by the route's completeAnswer.
 */
export async function withPaymentUrl(ctx: OperationContext, checkout: Checkout): Promise<Checkout> {
  const url = checkout.payment === null || checkout.status !== 'awaiting_payment' ? null : await paymentPageUrl(ctx.db, ctx.scope, checkout.payment);
  return url === null ? checkout : { ...checkout, payment_url: url };
}

/**
 * The charge's hosted page while the checkout awaits its payment through one; else null. Read at
 * each answer rather than stored: the page exists only while the charge awaits payment, and the
 * processor makes it after the checkout's COMMIT.
 */
async function withPageUrl(q: Queryable, scope: Scope, row: CheckoutRow) {
  const url = row.status === 'awaiting_payment' && row.payment_id !== null ? await paymentPageUrl(q, scope, row.payment_id) : null;
  return serializeCheckout(row, url);
}

export async function retrieveCheckout(ctx: OperationContext, id: string): Promise<Checkout> {
  const row = await selectCheckout(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('checkout', id);
  return withPageUrl(ctx.db, ctx.scope, row);
}

export async function listCheckouts(ctx: OperationContext, query: ListCheckoutsQuery): Promise<ListEnvelope<Checkout>> {
  const page = pageRequest(query, 'checkout');
  const rows = await selectCheckouts(ctx.db, ctx.scope, { buyer: query.buyer, status: query.status }, page);
  // Only the checkouts awaiting payment read their page (one statement each).
  return toList(await Promise.all(rows.map((row) => withPageUrl(ctx.db, ctx.scope, row))), page.limit);
}
