// Checkout operations (docs/decisions/checkouts.md). A checkout is made in one transaction, all
// or nothing: its orders are checked and their units reserved (the orders module's
// reserveCheckoutOrders), then its row is written, then its orders, their payment shares and
// their events (writeCheckoutOrders), then its own events. Its status afterwards follows its
// orders (follow-orders.ts).
import type { Queryable } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import { emitEvents } from '../../outbox/emit.js';
import type { OperationContext } from '../../contracts/context.js';
import type { Scope } from '../../scope.js';
import { reserveCheckoutOrders, writeCheckoutOrders } from '../orders/index.js';
import { paymentPageUrl } from '../payments/index.js';
import { insertCheckout, selectCheckout, selectCheckouts, updateCheckoutPayment, type CheckoutRow } from './queries.js';
import type { Checkout, CreateCheckoutBody, ListCheckoutsQuery } from './schemas.js';
import { serializeCheckout } from './serialize.js';

/**
 * Refusals, item by item in item order, as an order's creation refuses (contract 9), the `param`
 * naming the item (`items[2].listing`): 404 buyer, then listing; 409 invalid_state (listing not
 * published, buyer erased); 403 self_order, seller_suspended; with payments on the processor's
 * (per seller); 409 quantity_unavailable (`items[i].quantity`, the first item of the short
 * listing). Payments off: every order committed and the checkout `completed` at once
 * (checkout.created, checkout.completed after its orders' order.created and order.committed).
 * Payments on: every order `awaiting_payment` until the checkout's one payment succeeds
 * (checkout.created after payment.created and the orders' order.created).
 */
export async function createCheckout(ctx: OperationContext, body: CreateCheckoutBody): Promise<Checkout> {
  const { scope } = ctx;
  const id = newId('checkout');
  const checkout = await ctx.db.transaction(async (tx) => {
    const reserved = await reserveCheckoutOrders(tx, ctx, {
      checkout: id,
      buyer: body.buyer,
      items: body.items,
      payment_method: body.payment_method,
      success_url: body.success_url,
      cancel_url: body.cancel_url,
    });
    const { now } = reserved;
    const payments = reserved.settings.payments_enabled;
    let row = await insertCheckout(tx, scope, {
      id,
      buyer_id: body.buyer,
      status: payments ? 'awaiting_payment' : 'completed',
      currency: reserved.currency,
      subtotal: reserved.subtotal,
      fee_amount: reserved.feeAmount,
      total: reserved.total,
      order_ids: [...reserved.orderIds],
      success_url: body.success_url ?? null,
      cancel_url: body.cancel_url ?? null,
      expires_at: reserved.expiresAt,
      metadata: body.metadata ?? {},
      created_at: now,
    });
    const { payment } = await writeCheckoutOrders(tx, ctx, reserved);
    if (payment !== null) row = await updateCheckoutPayment(tx, scope, id, payment);
    const checkout = serializeCheckout(row, null);
    await emitEvents(tx, scope, now, payments ? [{ type: 'checkout.created', object: checkout }] : [
      { type: 'checkout.created', object: checkout },
      { type: 'checkout.completed', object: checkout },
    ]);
    return checkout;
  });
  return withPaymentUrl(ctx, checkout);
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
