// The payment side of orders (contract 9, 10), plugged in at the top like erasure.ts and
// drivers.ts: the orders module calls these hooks inside its own transactions and knows nothing
// of processors; an order is committed by `commitPaidOrder` (orders/operations.ts) when its
// payment succeeds. The payments module's hooks are registered by src/modules/index.ts (here they
// would make an import cycle with the orders module).
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import type { JobDeps } from '../workers/job-kinds.js';
import type { Settings } from '../modules/marketplaces/mode-settings.js';

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

/**
 * The services of the request that moves the order, so processor calls the move asks for are made
 * right after its COMMIT; null (a timer) leaves them to the worker.
 */
export type HookDeps = JobDeps | null;

export interface OrderPaymentHooks {
  /** Before units are reserved, with payments on: 403 processor_not_connected, seller_payouts_not_enabled. */
  assertCanPay?(tx: Tx, scope: Scope, sellerId: string, settings: Settings): Promise<void>;
  /** Creates the order's payment (payment.created); answers its id. */
  createPayment?(tx: Tx, scope: Scope, order: OrderForPayment, settings: Settings, now: Date, deps: HookDeps): Promise<string>;
  /** The order was cancelled or expired: cancel its payment, or refund it (`order_cancelled`, `order_expired`). */
  settleEnded?(tx: Tx, scope: Scope, paymentId: string, reason: 'order_cancelled' | 'order_expired', now: Date, deps: HookDeps): Promise<void>;
  /** The order completed: release the seller share after release_delay_seconds. */
  release?(tx: Tx, scope: Scope, paymentId: string, settings: Settings, now: Date, deps: HookDeps): Promise<void>;
  /** The order was disputed: hold the release until the dispute is decided. */
  holdRelease?(tx: Tx, scope: Scope, paymentId: string, now: Date): Promise<void>;
}

export const orderPaymentHooks: OrderPaymentHooks = {};

export function registerOrderPaymentHooks(hooks: Required<OrderPaymentHooks>): void {
  Object.assign(orderPaymentHooks, hooks);
}
