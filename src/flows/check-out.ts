// A checkout (POST /v1/checkouts, docs/decisions/checkouts.md): a buyer's cart across sellers made
// in one transaction, all or nothing. Its items are checked as orders are (orders), the sellers'
// processors asked (payments), the units of every listing reserved in one statement (listings),
// then the checkout's row (checkouts), its orders, with payments on its one charge and each
// order's share of it (payments), the orders' events, and the checkout's own. After the COMMIT the
// request makes the charge's start call, and the answer carries its page.
import type { OperationContext } from '../contracts/context.js';
import { newId } from '../ids.js';
import { announceCheckout, openCheckout, setCheckoutPayment, withPaymentUrl, type Checkout, type CreateCheckoutBody } from '../modules/checkouts/index.js';
import { reserveUnitsOfListings } from '../modules/listings/index.js';
import {
  announceCreated,
  checkCheckoutItems,
  draftCheckoutOrders,
  insertCheckoutOrders,
  paymentView,
  serializeOrder,
  setCheckoutOrderPayments,
  shortListingRefusal,
} from '../modules/orders/index.js';
import { assertCanPay, createCheckoutPayment, processorCallsAfterCommit } from '../modules/payments/index.js';

/**
 * Refusals, item by item in item order, as an order's creation refuses (contract 9), the `param`
 * naming the item (`items[2].listing`): 404 buyer, then listing; 409 invalid_state (listing not
 * published, buyer erased); 403 self_order, seller_suspended; with payments on the processor's
 * (per seller, in the order they first appear); 400 a total over the maximum; 409
 * quantity_unavailable (`items[i].quantity`, the first item of the short listing; the listings
 * are locked in id order, so checkouts sharing listings never deadlock). Payments off: every order
 * committed and the checkout `completed` at once (checkout.created, checkout.completed after its
 * orders' order.created and order.committed). Payments on: every order `awaiting_payment` until
 * the checkout's one payment succeeds (checkout.created after payment.created and the orders'
 * order.created).
 */
export async function checkOut(ctx: OperationContext, body: CreateCheckoutBody): Promise<Checkout> {
  const { scope } = ctx;
  const id = newId('checkout');
  const checkout = await ctx.db.transaction(async (tx) => {
    const request = { checkout: id, buyer: body.buyer, items: body.items, payment_method: body.payment_method, success_url: body.success_url, cancel_url: body.cancel_url };
    const checked = await checkCheckoutItems(tx, ctx, request);
    const { settings, now } = checked;
    const payments = settings.payments_enabled;
    if (payments) for (const sellerId of checked.sellerIds) await assertCanPay(tx, scope, sellerId);
    const drafted = draftCheckoutOrders(checked);
    const short = await reserveUnitsOfListings(tx, scope, drafted.units);
    if (short) throw shortListingRefusal(drafted, short);

    let row = await openCheckout(tx, scope, { id, body, payments, currency: drafted.currency, subtotal: drafted.subtotal, feeAmount: drafted.feeAmount, total: drafted.total, orderIds: drafted.orderIds, expiresAt: drafted.expiresAt, now });
    let orderRows = await insertCheckoutOrders(tx, ctx, drafted);
    let chargeId: string | null = null;
    if (payments) {
      const paid = await createCheckoutPayment(
        tx,
        scope,
        {
          id,
          buyer: body.buyer,
          currency: drafted.currency,
          subtotal: drafted.subtotal,
          fee_amount: drafted.feeAmount,
          total: drafted.total,
          payment_method: body.payment_method ?? 'checkout_session',
          success_url: body.success_url ?? null,
          cancel_url: body.cancel_url ?? null,
          orders: orderRows.map(paymentView),
        },
        settings,
        now,
        processorCallsAfterCommit(ctx),
      );
      chargeId = paid.payment;
      orderRows = await setCheckoutOrderPayments(tx, ctx, orderRows, paid.orderPayments);
    }
    await announceCreated(tx, scope, now, orderRows.map(serializeOrder));
    if (chargeId !== null) row = await setCheckoutPayment(tx, scope, id, chargeId);
    return announceCheckout(tx, scope, row, now);
  });
  // The processor made the charge's page in the start call, right after the COMMIT.
  return withPaymentUrl(ctx, checkout);
}
