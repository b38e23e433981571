// What every operation, timer and job runs with: the database, the clock, the configuration, and
// the hooks the composition root (src/app/wiring.ts) assembled from the modules' manifests. The
// hooks are how a module reaches behaviour that another module owns without importing it (orders
// call the payments side through orderPayments; a party's erasure runs every participant) and how
// modules reach the adapters (processors, storage). Every hook is required: a root that forgot one
// does not type-check.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db, Queryable, Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import type { Background } from './engine.js';
import type { ErasureParticipant } from './erasure.js';
import type { ModerationTargets } from './moderation.js';
import type { ProcessorDriver, Provider } from './processor.js';
import type { Settings } from './settings.js';
import type { StorageDriver } from './storage.js';

export interface Deps {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: Config;
  readonly hooks: Hooks;
  /** This process's background machinery (wake-ups, the components' loops), built by the root. */
  readonly background: Background;
}

export interface Hooks {
  /** The payment side of orders (the payments module's). */
  readonly orderPayments: OrderPaymentHooks;
  /** Everyone who keeps data about a seller or buyer, in the order erasure runs them. */
  readonly erasure: readonly ErasureParticipant[];
  /** What trust and safety can flag and act on, by target type. */
  readonly moderationTargets: ModerationTargets;
  /** The processor driver of each provider. */
  readonly processors: Readonly<Record<Provider, ProcessorDriver>>;
  /** File storage of this configuration (STORAGE: local disk or S3). */
  readonly storage: StorageDriver;
  /** The listings media belong to (the listings module's), for media, which listings depend on. */
  readonly listings: ListingLookup;
}

/** What media need to know of a listing. */
export interface ListingRef {
  id: string;
  seller_id: string;
  status: string;
}

export interface ListingLookup {
  /** The listing of the scope, or null. */
  find(q: Queryable, scope: Scope, id: string): Promise<ListingRef | null>;
  /** The same, locked for the rest of the transaction; 404 `resource_missing` when there is none. */
  lock(tx: Tx, scope: Scope, id: string): Promise<ListingRef>;
}

export interface OrderForPayment {
  id: string;
  buyer: string;
  seller: string;
  /** Its listing: named on the processor's checkout page of a checkout's charge. */
  listing?: string;
  subtotal: number;
  fee_amount: number;
  total: number;
  currency: string;
  payment_method: string;
  success_url: string | null;
  cancel_url: string | null;
}

/** A checkout's charge: one payment for the total of its orders (each order keeps its own share). */
export interface CheckoutForPayment {
  id: string;
  buyer: string;
  currency: string;
  subtotal: number;
  fee_amount: number;
  total: number;
  payment_method: string;
  success_url: string | null;
  cancel_url: string | null;
  /** Its orders, in item order. */
  orders: readonly OrderForPayment[];
}

/**
 * The services of the request that moves the order, so processor calls the move asks for are made
 * right after its COMMIT; null (a timer) leaves them to the worker.
 */
export type HookDeps = Deps | null;

/**
 * The payment side of orders (contract 9, 10): the orders module calls these inside its own
 * transactions and knows nothing of processors; an order is committed by `commitPaidOrder`
 * (src/modules/orders/operations.ts) when its payment succeeds.
 */
export interface OrderPaymentHooks {
  /** Before units are reserved, with payments on: 403 processor_not_connected, seller_payouts_not_enabled. */
  assertCanPay(tx: Tx, scope: Scope, sellerId: string, settings: Settings): Promise<void>;
  /**
   * Creates a checkout's payment: one charge for the checkout's total (its id answers as
   * `payment`), and each order's share of it (`orderPayments`, in the orders' order), which is
   * what the order's moves (settleEnded, release, holdRelease) and its refunds act on.
   */
  createCheckoutPayment(
    tx: Tx,
    scope: Scope,
    checkout: CheckoutForPayment,
    settings: Settings,
    now: Date,
    deps: HookDeps,
  ): Promise<{ payment: string; orderPayments: readonly string[] }>;
  /** Creates the order's payment (payment.created); answers its id. */
  createPayment(tx: Tx, scope: Scope, order: OrderForPayment, settings: Settings, now: Date, deps: HookDeps): Promise<string>;
  /** The order was cancelled or expired: cancel its payment, or refund it (`order_cancelled`, `order_expired`). */
  settleEnded(tx: Tx, scope: Scope, paymentId: string, reason: 'order_cancelled' | 'order_expired', now: Date, deps: HookDeps): Promise<void>;
  /** The order completed: release the seller share after release_delay_seconds. */
  release(tx: Tx, scope: Scope, paymentId: string, settings: Settings, now: Date, deps: HookDeps): Promise<void>;
  /** The order was disputed: hold the release until the dispute is decided. */
  holdRelease(tx: Tx, scope: Scope, paymentId: string, now: Date): Promise<void>;
}
