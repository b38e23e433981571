// Every SQL statement of the payments module: payments, refunds, card disputes and processor
// event receipts. Each names marketplace_id and mode. Updates take the changed columns as an
// object whose keys come from code (the Mutable types), never from input.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { PaymentStatus, RefundStatus } from './machines.js';

export type ReleaseStatus = 'held' | 'releasing' | 'released' | 'failed' | 'nothing_to_release' | 'in_balance';
export type RefundInitiator = 'api' | 'order_cancelled' | 'order_expired' | 'late_payment' | 'processor';
export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';

export interface PaymentMutable {
  status: PaymentStatus;
  checkout_url: string | null;
  client_secret: string | null;
  last_failure: string | null;
  amount_refunded: number;
  release_status: ReleaseStatus | null;
  release_amount: number;
  amount_reversed: number;
  reversal_waived: number;
  /** The release's part kept to pay what the seller owed (ledger recoverOwed); the transfer is the rest. */
  release_recovered: number;
  /** Fixed when the release starts: who bears what the seller owes on it after release (migration 0037). */
  seller_debt_policy: 'platform_loss' | 'recover' | null;
  release_failure: string | null;
  release_attempts: number;
  release_due_at: Date | null;
  released_at: Date | null;
  processor_payment_intent: string | null;
  processor_checkout_session: string | null;
  processor_charge: string | null;
  processor_transfer: string | null;
  metadata: Record<string, string>;
  paid_at: Date | null;
  canceled_at: Date | null;
  amount_mismatch: AmountMismatch | null;
  /** A card dispute on the share's checkout charge holds its release (release_due_at keeps the wanted start). */
  release_on_hold: boolean;
  /** The seller is paid on a schedule: at release the share moves to their available balance (in_balance) instead of a transfer. */
  release_to_balance: boolean;
}

/** One order of a checkout's charge, as the processor's checkout page lists it. */
export interface LineItem {
  order: string;
  listing: string | null;
  amount: number;
}

/** A success report the processor made with an amount or currency other than the payment's (not applied). */
export interface AmountMismatch {
  amount: number;
  currency: string;
  reported_at: string;
}

const JSON_COLUMNS = new Set(['metadata', 'amount_mismatch']);

export interface PaymentRow extends PaymentMutable {
  id: string;
  /** Null for a checkout's charge (its shares name the orders). */
  order_id: string | null;
  seller_id: string | null;
  /** The checkout of a charge or share; null for an order's own payment. */
  checkout_id: string | null;
  /** A share's charge; null for a charge or an order's own payment. */
  charge_payment_id: string | null;
  /** A share's position among its charge's shares (item order). */
  share_index: number | null;
  /** A checkout's charge: what it pays for, one item per order. */
  line_items: LineItem[] | null;
  provider: 'simulated' | 'stripe';
  method: 'checkout_session' | 'payment_intent';
  success_url: string | null;
  cancel_url: string | null;
  amount: number;
  fee_amount: number;
  subtotal: number;
  currency: string;
  created_at: Date;
  updated_at: Date;
}

// A checkout's charge is refunded through its shares: its amount_refunded is theirs, summed (never
// written on the charge, so a share's refund never has to lock the charge).
const PAYMENT_COLUMNS = `id, order_id, seller_id, checkout_id, charge_payment_id, share_index, line_items, release_on_hold, provider, method,
  success_url, cancel_url, status, amount, fee_amount, subtotal, currency, checkout_url, client_secret, last_failure,
  CASE WHEN checkout_id IS NOT NULL AND charge_payment_id IS NULL
    THEN (SELECT COALESCE(sum(s.amount_refunded), 0)::bigint FROM payments s
           WHERE s.marketplace_id = payments.marketplace_id AND s.mode = payments.mode AND s.charge_payment_id = payments.id)
    ELSE amount_refunded END AS amount_refunded, release_status, release_amount, amount_reversed, reversal_waived, release_recovered, seller_debt_policy, release_failure,
  release_attempts, release_due_at, released_at, release_to_balance, processor_payment_intent, processor_checkout_session, processor_charge, processor_transfer, metadata,
  paid_at, canceled_at, amount_mismatch, created_at, updated_at`;

export type NewPayment = Pick<PaymentRow, 'id' | 'order_id' | 'seller_id' | 'checkout_id' | 'charge_payment_id' | 'share_index' | 'line_items' | 'provider' | 'method' | 'amount' | 'fee_amount' | 'subtotal' | 'currency' | 'checkout_url' | 'client_secret' | 'success_url' | 'cancel_url' | 'created_at'>;

export async function insertPayment(tx: Tx, scope: Scope, p: NewPayment): Promise<void> {
  await tx.query(
    `INSERT INTO payments (marketplace_id, mode, id, order_id, seller_id, provider, method, status, amount, fee_amount, subtotal,
                           currency, checkout_url, client_secret, success_url, cancel_url, created_at, updated_at,
                           checkout_id, charge_payment_id, share_index, line_items)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'awaiting_payment', $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $17, $18, $19, $20)`,
    [scope.marketplaceId, scope.mode, p.id, p.order_id, p.seller_id, p.provider, p.method, p.amount, p.fee_amount, p.subtotal,
      p.currency, p.checkout_url, p.client_secret, p.success_url, p.cancel_url, p.created_at, p.checkout_id, p.charge_payment_id, p.share_index,
      p.line_items === null ? null : JSON.stringify(p.line_items)],
  );
}

export async function selectPayment(q: Queryable, scope: Scope, id: string): Promise<PaymentRow | null> {
  const rows = await q.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [scope.marketplaceId, scope.mode, id]);
  return rows[0] ?? null;
}

export async function lockPayment(tx: Tx, scope: Scope, id: string): Promise<PaymentRow | null> {
  const rows = await tx.query<PaymentRow>(
    `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export type ProcessorRef = 'processor_payment_intent' | 'processor_checkout_session' | 'processor_charge' | 'processor_transfer';

/**
 * The payment a processor object belongs to (its payment intent, session, charge or transfer).
 * A checkout's shares carry their charge's processor ids (so refunds and transfers name them): a
 * lookup by those finds the charge, never a share. Transfers are each share's own.
 */
export async function selectPaymentIdByProcessorRef(q: Queryable, scope: Scope, column: ProcessorRef, value: string): Promise<string | null> {
  const notShare = column === 'processor_transfer' ? '' : ' AND charge_payment_id IS NULL';
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM payments WHERE marketplace_id = $1 AND mode = $2 AND ${column} = $3${notShare}`,
    [scope.marketplaceId, scope.mode, value],
  );
  return rows[0]?.id ?? null;
}

/** The statuses of a charge's shares (read after the charge is locked). */
export async function selectShareStatuses(q: Queryable, scope: Scope, chargeId: string): Promise<PaymentStatus[]> {
  const rows = await q.query<{ status: PaymentStatus }>(
    'SELECT status FROM payments WHERE marketplace_id = $1 AND mode = $2 AND charge_payment_id = $3',
    [scope.marketplaceId, scope.mode, chargeId],
  );
  return rows.map((row) => row.status);
}

/** A charge's shares, in item order. */
export async function selectShareIds(q: Queryable, scope: Scope, chargeId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM payments WHERE marketplace_id = $1 AND mode = $2 AND charge_payment_id = $3 ORDER BY share_index',
    [scope.marketplaceId, scope.mode, chargeId],
  );
  return rows.map((row) => row.id);
}

/** The orders of a charge's shares, in item order. */
export async function selectShareOrderIds(q: Queryable, scope: Scope, chargeId: string): Promise<string[]> {
  const rows = await q.query<{ order_id: string }>(
    'SELECT order_id FROM payments WHERE marketplace_id = $1 AND mode = $2 AND charge_payment_id = $3 ORDER BY share_index',
    [scope.marketplaceId, scope.mode, chargeId],
  );
  return rows.map((row) => row.order_id);
}

export async function updatePayment(tx: Tx, scope: Scope, id: string, changes: Partial<PaymentMutable>, now: Date): Promise<PaymentRow> {
  const entries = Object.entries(changes);
  const sets = entries.map(([column], i) => `${column} = $${i + 5}`);
  const rows = await tx.query<PaymentRow>(
    `UPDATE payments SET ${[...sets, 'updated_at = $4'].join(', ')} WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${PAYMENT_COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, now, ...entries.map(([column, value]) => (JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value))],
  );
  if (!rows[0]) throw new Error(`payment ${id} vanished while locked`);
  return rows[0];
}

export function selectPaymentPage(q: Queryable, scope: Scope, filter: { order?: string; status?: string }, page: PageRequest): Promise<PaymentRow[]> {
  return selectPage<PaymentRow>(q, {
    sql: `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { order_id: filter.order, status: filter.status },
    page,
  });
}

/** Payments of a seller whose release failed: retried when the seller's payouts become enabled. */
export async function selectFailedReleaseIds(tx: Tx, scope: Scope, sellerId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `SELECT id FROM payments WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 AND release_status = 'failed' ORDER BY id`,
    [scope.marketplaceId, scope.mode, sellerId],
  );
  return rows.map((row) => row.id);
}

/** Payments of a seller whose transfer is on its way (just retried, say). */
export async function selectSellerPaymentIdsReleasing(tx: Tx, scope: Scope, sellerId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `SELECT id FROM payments WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3 AND release_status = 'releasing' ORDER BY id`,
    [scope.marketplaceId, scope.mode, sellerId],
  );
  return rows.map((row) => row.id);
}

export interface RefundMutable {
  status: RefundStatus;
  failure_reason: string | null;
  transfer_reversal_amount: number | null;
  transfer_reversal_failure: string | null;
  processor_refund: string | null;
  processor_transfer_reversal: string | null;
  metadata: Record<string, string>;
}

export interface RefundRow extends RefundMutable {
  id: string;
  payment_id: string;
  order_id: string;
  amount: number;
  currency: string;
  reason: RefundReason | null;
  initiated_by: RefundInitiator;
  created_at: Date;
  updated_at: Date;
}

const REFUND_COLUMNS = `id, payment_id, order_id, amount, currency, reason, initiated_by, status, failure_reason, transfer_reversal_amount,
  transfer_reversal_failure,  processor_refund, processor_transfer_reversal, metadata, created_at, updated_at`;

export type NewRefund = Pick<RefundRow, 'id' | 'payment_id' | 'order_id' | 'amount' | 'currency' | 'reason' | 'initiated_by' | 'status' | 'transfer_reversal_amount' | 'processor_refund' | 'metadata' | 'created_at'>;

export async function insertRefund(tx: Tx, scope: Scope, r: NewRefund): Promise<RefundRow> {
  const rows = await tx.query<RefundRow>(
    `INSERT INTO refunds (marketplace_id, mode, id, payment_id, order_id, amount, currency, reason, initiated_by, status,
                          transfer_reversal_amount, processor_refund, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING ${REFUND_COLUMNS}`,
    [scope.marketplaceId, scope.mode, r.id, r.payment_id, r.order_id, r.amount, r.currency, r.reason, r.initiated_by, r.status,
      r.transfer_reversal_amount, r.processor_refund, JSON.stringify(r.metadata), r.created_at],
  );
  return rows[0] as RefundRow;
}

export async function selectRefund(q: Queryable, scope: Scope, id: string): Promise<RefundRow | null> {
  const rows = await q.query<RefundRow>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [scope.marketplaceId, scope.mode, id]);
  return rows[0] ?? null;
}

export async function lockRefund(tx: Tx, scope: Scope, id: string): Promise<RefundRow | null> {
  const rows = await tx.query<RefundRow>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [scope.marketplaceId, scope.mode, id]);
  return rows[0] ?? null;
}

export async function selectRefundIdByProcessorRefund(q: Queryable, scope: Scope, processorRefund: string): Promise<string | null> {
  return (await selectRefundIdsByProcessorRefund(q, scope, processorRefund))[0] ?? null;
}

/** Our refunds a processor refund stands for: one, or one per share of a checkout's charge (refunded in its dashboard). */
export async function selectRefundIdsByProcessorRefund(q: Queryable, scope: Scope, processorRefund: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM refunds WHERE marketplace_id = $1 AND mode = $2 AND processor_refund = $3 ORDER BY id',
    [scope.marketplaceId, scope.mode, processorRefund],
  );
  return rows.map((row) => row.id);
}

export async function selectRefundIdByReversal(q: Queryable, scope: Scope, reversal: string): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM refunds WHERE marketplace_id = $1 AND mode = $2 AND processor_transfer_reversal = $3',
    [scope.marketplaceId, scope.mode, reversal],
  );
  return rows[0]?.id ?? null;
}

export async function updateRefund(tx: Tx, scope: Scope, id: string, changes: Partial<RefundMutable>, now: Date): Promise<RefundRow> {
  const entries = Object.entries(changes);
  const sets = entries.map(([column], i) => `${column} = $${i + 5}`);
  const rows = await tx.query<RefundRow>(
    `UPDATE refunds SET ${[...sets, 'updated_at = $4'].join(', ')} WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${REFUND_COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, now, ...entries.map(([column, value]) => (column === 'metadata' ? JSON.stringify(value) : value))],
  );
  if (!rows[0]) throw new Error(`refund ${id} vanished while locked`);
  return rows[0];
}

/**
 * A page of refunds. `payment` names the refunds of that payment, and for a checkout's charge (which
 * holds no refund itself) those of its shares: the charge's shares found by payments_charge_share_key,
 * their refunds by refunds_payment_idx.
 */
export function selectRefundPage(q: Queryable, scope: Scope, filter: { payment?: string; order?: string }, page: PageRequest): Promise<RefundRow[]> {
  const ofPayment =
    filter.payment === undefined
      ? ''
      : ` AND payment_id IN (SELECT $3::text UNION ALL
                             SELECT id FROM payments WHERE marketplace_id = $1 AND mode = $2 AND charge_payment_id = $3)`;
  return selectPage<RefundRow>(q, {
    sql: `SELECT ${REFUND_COLUMNS} FROM refunds WHERE marketplace_id = $1 AND mode = $2${ofPayment}`,
    params: filter.payment === undefined ? [scope.marketplaceId, scope.mode] : [scope.marketplaceId, scope.mode, filter.payment],
    equals: { order_id: filter.order },
    page,
  });
}

export interface CardDisputeRow {
  id: string;
  payment_id: string;
  order_id: string | null;
  amount: number;
  reason: string;
  status: string;
  evidence_due_by: Date | null;
  processor_dispute: string;
  created_at: Date;
  updated_at: Date;
}

const CARD_DISPUTE_COLUMNS = 'id, payment_id, order_id, amount, reason, status, evidence_due_by, processor_dispute, created_at, updated_at';

export async function lockCardDisputeByProcessorId(tx: Tx, scope: Scope, processorDispute: string): Promise<CardDisputeRow | null> {
  const rows = await tx.query<CardDisputeRow>(
    `SELECT ${CARD_DISPUTE_COLUMNS} FROM card_disputes WHERE marketplace_id = $1 AND mode = $2 AND processor_dispute = $3 FOR UPDATE`,
    [scope.marketplaceId, scope.mode, processorDispute],
  );
  return rows[0] ?? null;
}

export async function insertCardDispute(tx: Tx, scope: Scope, d: Omit<CardDisputeRow, 'updated_at'>): Promise<CardDisputeRow> {
  const rows = await tx.query<CardDisputeRow>(
    `INSERT INTO card_disputes (marketplace_id, mode, id, payment_id, order_id, amount, reason, status, evidence_due_by, processor_dispute,
                                created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING ${CARD_DISPUTE_COLUMNS}`,
    [scope.marketplaceId, scope.mode, d.id, d.payment_id, d.order_id, d.amount, d.reason, d.status, d.evidence_due_by, d.processor_dispute, d.created_at],
  );
  return rows[0] as CardDisputeRow;
}

export async function updateCardDispute(
  tx: Tx,
  scope: Scope,
  id: string,
  changes: Pick<CardDisputeRow, 'amount' | 'reason' | 'status' | 'evidence_due_by'>,
  now: Date,
): Promise<CardDisputeRow> {
  const rows = await tx.query<CardDisputeRow>(
    `UPDATE card_disputes SET amount = $4, reason = $5, status = $6, evidence_due_by = $7, updated_at = $8
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${CARD_DISPUTE_COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, changes.amount, changes.reason, changes.status, changes.evidence_due_by, now],
  );
  return rows[0] as CardDisputeRow;
}

export async function selectCardDispute(q: Queryable, scope: Scope, id: string): Promise<CardDisputeRow | null> {
  const rows = await q.query<CardDisputeRow>(`SELECT ${CARD_DISPUTE_COLUMNS} FROM card_disputes WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [scope.marketplaceId, scope.mode, id]);
  return rows[0] ?? null;
}

export function selectCardDisputePage(q: Queryable, scope: Scope, filter: { payment?: string; order?: string; status?: string }, page: PageRequest): Promise<CardDisputeRow[]> {
  return selectPage<CardDisputeRow>(q, {
    sql: `SELECT ${CARD_DISPUTE_COLUMNS} FROM card_disputes WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { payment_id: filter.payment, order_id: filter.order, status: filter.status },
    page,
  });
}

/**
 * The simulated checkout page's payment, found by its id alone (the page has no API key, so no
 * scope); the row names its marketplace and mode, and everything after is scoped by them.
 */
export async function selectSimulatedCheckout(q: Queryable, id: string): Promise<{ marketplace_id: string; mode: 'test' | 'live'; checkout_url: string | null } | null> {
  const rows = await q.query<{ marketplace_id: string; mode: 'test' | 'live'; checkout_url: string | null }>(
    "SELECT marketplace_id, mode, checkout_url FROM payments WHERE id = $1 AND provider = 'simulated' AND charge_payment_id IS NULL",
    [id],
  );
  return rows[0] ?? null;
}

/** Records a processor event as received; false when it was already (a duplicate delivery). */
export async function insertEventReceipt(tx: Tx, scope: Scope, provider: string, eventId: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO processor_event_receipts (marketplace_id, mode, provider, event_id, received_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING event_id`,
    [scope.marketplaceId, scope.mode, provider, eventId, now],
  );
  return rows.length === 1;
}

/** Whether a card dispute on the payment is still open (its status not one of `closed`). */
export async function chargeHasOpenCardDispute(q: Queryable, scope: Scope, paymentId: string, closed: readonly string[]): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM card_disputes WHERE marketplace_id = $1 AND mode = $2 AND payment_id = $3 AND NOT (status = ANY($4)) LIMIT 1',
    [scope.marketplaceId, scope.mode, paymentId, closed],
  );
  return rows.length > 0;
}

export async function selectCardDisputeByProcessorId(q: Queryable, scope: Scope, processorDispute: string): Promise<CardDisputeRow | null> {
  const rows = await q.query<CardDisputeRow>(
    `SELECT ${CARD_DISPUTE_COLUMNS} FROM card_disputes WHERE marketplace_id = $1 AND mode = $2 AND processor_dispute = $3`,
    [scope.marketplaceId, scope.mode, processorDispute],
  );
  return rows[0] ?? null;
}

/** The payments of these ids, in one statement (expand[]); an id not found is absent. */
export function selectPaymentsByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<PaymentRow[]> {
  return q.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}

/** The refunds of these ids, in one statement (expand[]); an id not found is absent. */
export function selectRefundsByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<RefundRow[]> {
  return q.query<RefundRow>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}

/** A payment's refunds, oldest first (refunds_payment_idx): the ledger's positions are computed from them. */
export async function selectRefundsOfPayment(q: Queryable, scope: Scope, paymentId: string): Promise<RefundRow[]> {
  return q.query<RefundRow>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE marketplace_id = $1 AND mode = $2 AND payment_id = $3 ORDER BY id`, [
    scope.marketplaceId,
    scope.mode,
    paymentId,
  ]);
}

export interface ScopedId {
  marketplace_id: string;
  mode: 'test' | 'live';
  id: string;
}

/**
 * A batch of the payments that hold an order's money, across every marketplace and mode, in key
 * order after `after` (the ledger invariants' full pass; payments' primary key).
 */
export function selectOrderPartPaymentKeys(q: Queryable, after: ScopedId | null, limit: number): Promise<ScopedId[]> {
  return q.query<ScopedId>(
    `SELECT marketplace_id, mode, id FROM payments
      WHERE order_id IS NOT NULL AND ($1::text IS NULL OR (marketplace_id, mode, id) > ($1, $2, $3))
      ORDER BY marketplace_id, mode, id LIMIT $4`,
    [after?.marketplace_id ?? null, after?.mode ?? null, after?.id ?? null, limit],
  );
}

/** A batch of card disputes across every marketplace and mode, in key order (the full pass). */
export function selectCardDisputeKeys(q: Queryable, after: ScopedId | null, limit: number): Promise<ScopedId[]> {
  return q.query<ScopedId>(
    `SELECT marketplace_id, mode, id FROM card_disputes
      WHERE ($1::text IS NULL OR (marketplace_id, mode, id) > ($1, $2, $3))
      ORDER BY marketplace_id, mode, id LIMIT $4`,
    [after?.marketplace_id ?? null, after?.mode ?? null, after?.id ?? null, limit],
  );
}

/** A payment's card disputes (card_disputes_payment_idx). */
export function selectCardDisputesOfPayment(q: Queryable, scope: Scope, paymentId: string): Promise<CardDisputeRow[]> {
  return q.query<CardDisputeRow>(`SELECT ${CARD_DISPUTE_COLUMNS} FROM card_disputes WHERE marketplace_id = $1 AND mode = $2 AND payment_id = $3 ORDER BY id`, [
    scope.marketplaceId,
    scope.mode,
    paymentId,
  ]);
}
