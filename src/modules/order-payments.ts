// The payment side of orders (contract 9, 10), plugged in at the top like erasure.ts and
// drivers.ts: the orders module calls these hooks inside its own transactions and knows nothing
// of processors. Nothing is registered until payments exist: then an order made with payments on
// awaits payment with `payment` null, and is committed by `commitPaidOrder` (orders/operations.ts)
// when its payment succeeds. The payments module registers itself here with one line.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import type { Settings } from './marketplace/settings.js';

export interface OrderForPayment {
  id: string;
  buyer: string;
  seller: string;
  subtotal: number;
  fee_amount: number;
  total: number;
  currency: string;
  payment_method: string;
  success_url: string | null;
  cancel_url: string | null;
}

export interface OrderPaymentHooks {
  /** Before units are reserved, with payments on: 403 processor_not_connected, seller_payouts_not_enabled. */
  assertCanPay?(tx: Tx, scope: Scope, sellerId: string, settings: Settings): Promise<void>;
  /** Creates the order's payment (payment.created); answers its id. */
  createPayment?(tx: Tx, scope: Scope, order: OrderForPayment, now: Date): Promise<string>;
  /** The order was cancelled or expired: cancel its payment, or refund it (`order_cancelled`, `order_expired`). */
  settleEnded?(tx: Tx, scope: Scope, paymentId: string, reason: 'order_cancelled' | 'order_expired', now: Date): Promise<void>;
  /** The order completed: release the seller share after release_delay_seconds. */
  release?(tx: Tx, scope: Scope, paymentId: string, now: Date): Promise<void>;
  /** The order was disputed: hold the release until the dispute is decided. */
  holdRelease?(tx: Tx, scope: Scope, paymentId: string, now: Date): Promise<void>;
}

export const orderPaymentHooks: OrderPaymentHooks = {};
