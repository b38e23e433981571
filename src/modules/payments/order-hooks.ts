// The payments module's side of orders (src/contracts/deps.ts): what an order's creation
// and moves do to its payment, in the order's transaction.
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { OrderPaymentHooks } from '../../contracts/deps.js';
import { findSellerPayouts } from '../sellers/index.js';
import { emitEvent } from '../../outbox/emit.js';
import * as ledger from './ledger.js';
import { enqueueCall } from './call-queue.js';
import { kickFor } from './kick.js';
import * as queries from './queries.js';
import { serializePayment } from './serialize.js';
import { connectedProvider } from '../marketplaces/index.js';

export const paymentOrderHooks: Required<OrderPaymentHooks> = {
  // Contract 9's order: the platform's own connection before the seller's onboarding, so a
  // mode without a processor never sends the developer to the seller's onboarding.
  async assertCanPay(tx, scope, sellerId) {
    if ((await connectedProvider(tx, scope)) === null) {
      throw errors.forbidden('processor_not_connected', 'Payments are on and this mode has no processor connection; connect one in the dashboard first.');
    }
    const seller = await findSellerPayouts(tx, scope, sellerId);
    if (!seller || seller.payouts_status !== 'enabled') {
      throw errors.forbidden(
        'seller_payouts_not_enabled',
        `Payments are on and the seller ${sellerId} has not finished processor onboarding (payouts ${seller?.payouts_status ?? 'not_started'}).`,
      );
    }
  },

  async createPayment(tx, scope, order, settings, now, deps) {
    const provider = await connectedProvider(tx, scope);
    if (provider === null) throw errors.forbidden('processor_not_connected', 'Payments are on and this mode has no processor connection.');
    const method = order.payment_method === 'payment_intent' ? 'payment_intent' : 'checkout_session';
    const successUrl = order.success_url ?? settings.checkout_success_url;
    const cancelUrl = order.cancel_url ?? settings.checkout_cancel_url;
    if (provider === 'stripe' && method === 'checkout_session' && (successUrl === null || cancelUrl === null)) {
      const field = successUrl === null ? 'success_url' : 'cancel_url';
      throw errors.invalidRequest(`A Stripe checkout needs ${field}: give it with the order, or set checkout_${field} in the mode's settings.`, field);
    }
    const id = newId('payment');
    await queries.insertPayment(tx, scope, {
      id,
      order_id: order.id,
      seller_id: order.seller,
      provider,
      method,
      amount: order.total,
      fee_amount: order.fee_amount,
      subtotal: order.subtotal,
      currency: order.currency,
      checkout_url: null,
      client_secret: null,
      success_url: successUrl,
      cancel_url: cancelUrl,
      created_at: now,
    });
    const row = await queries.selectPayment(tx, scope, id);
    await emitEvent(tx, scope, now, 'payment.created', serializePayment(row!));
    await enqueueCall(tx, scope, id, { call: 'start', description: `Order ${order.id}`, successUrl, cancelUrl }, now, kickFor(deps));
    return id;
  },

  async settleEnded(tx, scope, paymentId, reason, now, deps) {
    const row = await ledger.requirePaymentLocked(tx, scope, paymentId);
    await ledger.settleEndedOrder(tx, scope, row, reason, now, kickFor(deps));
  },

  async release(tx, scope, paymentId, settings, now, deps) {
    const row = await ledger.requirePaymentLocked(tx, scope, paymentId);
    const seller = (await findSellerPayouts(tx, scope, row.seller_id)) ?? { payouts_status: 'not_started', processor_account: null };
    await ledger.scheduleRelease(tx, scope, row, settings.release_delay_seconds, now, seller, kickFor(deps));
  },

  async holdRelease(tx, scope, paymentId, now) {
    const row = await ledger.requirePaymentLocked(tx, scope, paymentId);
    await ledger.holdRelease(tx, scope, row, now);
  },
};

