// Every SQL statement of the orders module: orders, their transition log and disputes. Each one
// names marketplace_id and mode. A move of an order writes the order and its transition in one
// statement, and a new order its timer too (docs/performance.md R1).
import { settleAll, type Queryable, type Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import { scheduleTimerWith } from '../../workers/timers.js';
import type { DisputeStatus } from './dispute-machine.js';
import type { OrderState } from './machine.js';

/** 'none': an order of a listing that sells time holds no counted units (its time is the bookings module's). */
export type Units = 'reserved' | 'returned' | 'sold' | 'none';

/** What a move may change of an order. */
export interface OrderMutable {
  state: OrderState;
  units: Units;
  payment_id: string | null;
  cancellation_proposed_by: 'buyer' | 'seller' | null;
  cancellation_reason: string | null;
  cancellation_proposed_at: Date | null;
  dispute_id: string | null;
  deadline: Date | null;
  claimed_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  expired_at: Date | null;
}

export interface OrderRow extends OrderMutable {
  id: string;
  buyer_id: string;
  seller_id: string;
  listing_id: string;
  quantity: number;
  unit_amount: number | string;
  subtotal: number | string;
  fee_amount: number | string;
  total: number | string;
  currency: string;
  payment_method: string;
  success_url: string | null;
  cancel_url: string | null;
  metadata: Record<string, string>;
  /** The checkout the order was made in; null for an order made alone. */
  checkout_id: string | null;
  /** A booking's time (an order of a day or time listing); all four null for an order of units. */
  booking_start: Date | null;
  booking_end: Date | null;
  booking_seats: number | null;
  booking_time_zone: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface TransitionValues {
  id: string;
  from: OrderState | null;
  to: OrderState;
  transition: string;
  actor: string | null;
  reason: string | null;
}

const COLUMNS = `id, buyer_id, seller_id, listing_id, quantity, unit_amount, subtotal, fee_amount, total, currency, state, units,
  payment_id, payment_method, success_url, cancel_url, cancellation_proposed_by, cancellation_reason, cancellation_proposed_at,
  dispute_id, deadline, metadata, checkout_id, claimed_at, completed_at, cancelled_at, expired_at, created_at, updated_at,
  booking_start, booking_end, booking_seats, booking_time_zone`;

/**
 * What order creation's rules read, in one statement and without locks: the mode's settings and
 * test-clock offset, the buyer's standing, the listing, its seller's standing and its category's
 * fee. It reads four other modules' tables (marketplace_modes, buyers, listings with sellers and
 * categories) rather than asking each module, on the hottest write path (docs/performance.md R2,
 * docs/decisions/orders.md). The buyer's and listing's columns are null when they do not exist;
 * a listing's seller and category always exist (foreign keys).
 */
export interface OrderInputsRow {
  /** The position of the listing in the ids asked for (1-based). */
  n: number | string;
  settings: unknown;
  clock_offset_ms: number | string;
  buyer_id: string | null;
  buyer_external_id: string | null;
  buyer_erased_at: Date | null;
  listing_id: string | null;
  listing_status: string | null;
  seller_id: string | null;
  category_id: string | null;
  price_amount: number | string | null;
  currency: string | null;
  quantity_available: number | null;
  seller_external_id: string | null;
  seller_status: string | null;
  unit_type: 'item' | 'day' | 'time' | null;
  seats: number | null;
  slot_minutes: number | null;
  category_fee: { percent_bps: number | null; fixed_amount: number | null } | null;
}

/** One row per listing id asked for, in their order (an id asked twice answers twice); none when the mode is unknown. */
export async function selectOrderInputs(q: Queryable, scope: Scope, buyerId: string, listingIds: readonly string[]): Promise<OrderInputsRow[]> {
  return q.query<OrderInputsRow>(
    `SELECT i.n, mm.settings, mm.clock_offset_ms,
            b.id AS buyer_id, b.external_id AS buyer_external_id, b.erased_at AS buyer_erased_at,
            l.id AS listing_id, l.status AS listing_status, l.seller_id, l.category_id, l.price_amount, l.currency,
            l.quantity - l.quantity_reserved - l.quantity_sold AS quantity_available,
            s.external_id AS seller_external_id, s.status AS seller_status,
            l.unit_type, l.seats, l.slot_minutes,
            c.fee AS category_fee
       FROM marketplace_modes mm
      CROSS JOIN unnest($4::text[]) WITH ORDINALITY AS i(listing_id, n)
       LEFT JOIN buyers b ON b.marketplace_id = mm.marketplace_id AND b.mode = mm.mode AND b.id = $3
       LEFT JOIN listings l ON l.marketplace_id = mm.marketplace_id AND l.mode = mm.mode AND l.id = i.listing_id
       LEFT JOIN sellers s ON s.marketplace_id = l.marketplace_id AND s.mode = l.mode AND s.id = l.seller_id
       LEFT JOIN categories c ON c.marketplace_id = l.marketplace_id AND c.mode = l.mode AND c.id = l.category_id
      WHERE mm.marketplace_id = $1 AND mm.mode = $2
      ORDER BY i.n`,
    [scope.marketplaceId, scope.mode, buyerId, listingIds],
  );
}

/**
 * The new order, its creation transition and the timer of its first state's window (`timerKind`,
 * due at its deadline), in one statement. Nothing is read back: the caller has every value
 * (newOrderRow), so the statement can go out with the ones after it.
 */
export async function insertOrder(tx: Tx, scope: Scope, order: OrderRow, transition: TransitionValues, timerKind: string): Promise<void> {
  const params: unknown[] = [
    scope.marketplaceId,
    scope.mode,
    order.id,
    order.buyer_id,
    order.seller_id,
    order.listing_id,
    order.quantity,
    order.unit_amount,
    order.subtotal,
    order.fee_amount,
    order.total,
    order.currency,
    order.state,
    order.payment_id,
    order.payment_method,
    order.success_url,
    order.cancel_url,
    order.deadline,
    JSON.stringify(order.metadata),
    order.created_at,
    transition.id,
    order.checkout_id,
    order.units,
    order.booking_start,
    order.booking_end,
    order.booking_seats,
    order.booking_time_zone,
  ];
  const timer = scheduleTimerWith('t', { marketplaceId: '$1', mode: '$2', subjectId: '$3', runAt: '$18' }, timerKind, params);
  await tx.query(
    `WITH o AS (
       INSERT INTO orders (marketplace_id, mode, id, buyer_id, seller_id, listing_id, quantity, unit_amount, subtotal, fee_amount,
                           total, currency, state, units, payment_id, payment_method, success_url, cancel_url, deadline, metadata,
                           checkout_id, created_at, updated_at, booking_start, booking_end, booking_seats, booking_time_zone)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $23, $14, $15, $16, $17, $18, $19, $22, $20, $20,
               $24, $25, $26, $27)
       RETURNING id),
     ${timer}
     INSERT INTO order_transitions (marketplace_id, mode, id, order_id, from_state, to_state, transition, actor, reason, created_at)
     SELECT $1, $2, $21, o.id, NULL, $13, 'create', NULL, NULL, $20 FROM o`,
    params,
  );
}

/**
 * The row a new order is stored as, made from its values as insertOrder stores them: updated_at is
 * created_at, and metadata's keys are in jsonb's order (shorter keys first, then by their bytes),
 * so the answer is the one a later read gives.
 */
export function newOrderRow(order: Omit<OrderRow, 'updated_at'>): OrderRow {
  const keys = Object.keys(order.metadata).sort((a, b) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length - y.length || Buffer.compare(x, y);
  });
  const metadata: Record<string, string> = {};
  for (const key of keys) metadata[key] = order.metadata[key]!;
  return { ...order, metadata, updated_at: order.created_at };
}

/** Writes a move: the order's changed fields and its transition, in one statement. */
export async function updateOrderMove(
  tx: Tx,
  scope: Scope,
  id: string,
  values: OrderMutable,
  transition: TransitionValues,
  now: Date,
): Promise<OrderRow> {
  const rows = await tx.query<OrderRow>(
    `WITH o AS (
       UPDATE orders SET state = $4, units = $5, payment_id = $6, cancellation_proposed_by = $7, cancellation_reason = $8,
                         cancellation_proposed_at = $9, dispute_id = $10, deadline = $11, claimed_at = $12, completed_at = $13,
                         cancelled_at = $14, expired_at = $15, updated_at = $16
        WHERE marketplace_id = $1 AND mode = $2 AND id = $3
        RETURNING ${COLUMNS}),
     t AS (
       INSERT INTO order_transitions (marketplace_id, mode, id, order_id, from_state, to_state, transition, actor, reason, created_at)
       VALUES ($1, $2, $17, $3, $18, $4, $19, $20, $21, $16))
     SELECT * FROM o`,
    [
      scope.marketplaceId,
      scope.mode,
      id,
      values.state,
      values.units,
      values.payment_id,
      values.cancellation_proposed_by,
      values.cancellation_reason,
      values.cancellation_proposed_at,
      values.dispute_id,
      values.deadline,
      values.claimed_at,
      values.completed_at,
      values.cancelled_at,
      values.expired_at,
      now,
      transition.id,
      transition.from,
      transition.transition,
      transition.actor,
      transition.reason,
    ],
  );
  return rows[0]!;
}

export async function selectOrder(q: Queryable, scope: Scope, id: string): Promise<OrderRow | null> {
  const rows = await q.query<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockOrder(tx: Tx, scope: Scope, id: string): Promise<OrderRow | null> {
  const rows = await tx.query<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export interface OrderFilter {
  buyer?: string;
  seller?: string;
  listing?: string;
  state?: OrderState;
  checkout?: string;
}

export function selectOrders(q: Queryable, scope: Scope, filter: OrderFilter, page: PageRequest): Promise<OrderRow[]> {
  return selectPage<OrderRow>(q, {
    sql: `SELECT ${COLUMNS} FROM orders WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { buyer_id: filter.buyer, seller_id: filter.seller, listing_id: filter.listing, state: filter.state, checkout_id: filter.checkout },
    page,
  });
}

export interface TransitionRow {
  id: string;
  order_id: string;
  from_state: OrderState | null;
  to_state: OrderState;
  transition: string;
  actor: string | null;
  reason: string | null;
  created_at: Date;
}

/** An order's transitions, oldest first. */
export function selectTransitions(q: Queryable, scope: Scope, orderId: string): Promise<TransitionRow[]> {
  return q.query<TransitionRow>(
    `SELECT id, order_id, from_state, to_state, transition, actor, reason, created_at
       FROM order_transitions WHERE marketplace_id = $1 AND mode = $2 AND order_id = $3 ORDER BY id`,
    [scope.marketplaceId, scope.mode, orderId],
  );
}

// ---- disputes ----

export interface EvidenceItem {
  actor: string;
  text: string;
  created_at: string;
}

export interface DisputeRow {
  id: string;
  order_id: string;
  opened_by: string;
  reason: 'not_received' | 'not_as_described' | 'other';
  description: string;
  status: DisputeStatus;
  outcome: 'buyer' | 'seller' | null;
  decision_note: string | null;
  decision_due_at: Date;
  evidence: EvidenceItem[];
  created_at: Date;
  decided_at: Date | null;
}

const DISPUTE_COLUMNS = `id, order_id, opened_by, reason, description, status, outcome, decision_note, decision_due_at, evidence,
  created_at, decided_at`;

export async function insertDispute(
  tx: Tx,
  scope: Scope,
  dispute: Pick<DisputeRow, 'id' | 'order_id' | 'opened_by' | 'reason' | 'description' | 'decision_due_at' | 'created_at'>,
): Promise<DisputeRow> {
  const rows = await tx.query<DisputeRow>(
    `INSERT INTO disputes (marketplace_id, mode, id, order_id, opened_by, reason, description, status, decision_due_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9)
     RETURNING ${DISPUTE_COLUMNS}`,
    [scope.marketplaceId, scope.mode, dispute.id, dispute.order_id, dispute.opened_by, dispute.reason, dispute.description, dispute.decision_due_at, dispute.created_at],
  );
  return rows[0]!;
}

export async function selectDispute(q: Queryable, scope: Scope, id: string): Promise<DisputeRow | null> {
  const rows = await q.query<DisputeRow>(`SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockDispute(tx: Tx, scope: Scope, id: string): Promise<DisputeRow | null> {
  const rows = await tx.query<DisputeRow>(
    `SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

/** The order of a dispute, read without a lock so the caller can lock the order first. */
export async function selectDisputeOrderId(q: Queryable, scope: Scope, id: string): Promise<string | null> {
  const rows = await q.query<{ order_id: string }>('SELECT order_id FROM disputes WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0]?.order_id ?? null;
}

export function selectDisputes(q: Queryable, scope: Scope, filter: { order?: string; status?: DisputeStatus }, page: PageRequest): Promise<DisputeRow[]> {
  return selectPage<DisputeRow>(q, {
    sql: `SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { order_id: filter.order, status: filter.status },
    page,
  });
}

export async function updateDisputeEvidence(tx: Tx, scope: Scope, id: string, item: EvidenceItem): Promise<DisputeRow> {
  const rows = await tx.query<DisputeRow>(
    `UPDATE disputes SET evidence = evidence || $4::jsonb WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${DISPUTE_COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, JSON.stringify([item])],
  );
  return rows[0]!;
}

export async function updateDisputeDecided(
  tx: Tx,
  scope: Scope,
  id: string,
  outcome: 'buyer' | 'seller',
  note: string | null,
  now: Date,
): Promise<DisputeRow> {
  const rows = await tx.query<DisputeRow>(
    `UPDATE disputes SET status = 'decided', outcome = $4, decision_note = $5, decided_at = $6
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${DISPUTE_COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, outcome, note, now],
  );
  return rows[0]!;
}

/** The payment made for a new order (with payments on), in its creation's transaction. */
export async function updateOrderPayment(tx: Tx, scope: Scope, id: string, paymentId: string): Promise<OrderRow> {
  const rows = await tx.query<OrderRow>(
    `UPDATE orders SET payment_id = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, paymentId],
  );
  return rows[0]!;
}

/** The states of a checkout's orders (for its status, src/modules/checkouts/). */
export async function selectCheckoutOrderStates(q: Queryable, scope: Scope, checkoutId: string): Promise<OrderState[]> {
  const rows = await q.query<{ state: OrderState }>(
    'SELECT state FROM orders WHERE marketplace_id = $1 AND mode = $2 AND checkout_id = $3',
    [scope.marketplaceId, scope.mode, checkoutId],
  );
  return rows.map((row) => row.state);
}

// ---- erasure (src/modules/orders/erasure.ts) ----

/**
 * The party's orders that hold text the party wrote (a transition reason, so also a cancellation
 * reason, or their dispute's description or evidence), locked in id order so two erasures sharing
 * orders (the buyer's and the seller's) take them in the same order.
 */
export async function lockOrdersWithTextOf(tx: Tx, scope: Scope, partyId: string): Promise<Array<{ id: string; dispute_id: string | null }>> {
  return tx.query<{ id: string; dispute_id: string | null }>(
    `SELECT o.id, o.dispute_id FROM orders o
      WHERE o.marketplace_id = $1 AND o.mode = $2 AND (o.buyer_id = $3 OR o.seller_id = $3)
        AND (EXISTS (SELECT 1 FROM order_transitions t
                      WHERE t.marketplace_id = $1 AND t.mode = $2 AND t.order_id = o.id AND t.actor = $3 AND t.reason IS NOT NULL)
             OR EXISTS (SELECT 1 FROM disputes d
                         WHERE d.marketplace_id = $1 AND d.mode = $2 AND d.order_id = o.id
                           AND (d.opened_by = $3 OR d.evidence @> jsonb_build_array(jsonb_build_object('actor', $3::text)))))
      ORDER BY o.id FOR UPDATE OF o`,
    [scope.marketplaceId, scope.mode, partyId],
  );
}

/**
 * Writes `marker` over the text the party wrote in the given (locked) orders: the reason of a
 * cancellation they proposed, the reasons of their transitions (but a dispute's, which is one of
 * the closed list of dispute reasons), their dispute's description when they opened it and the
 * text of each evidence item they added (the items keep their place, author and time).
 */
export async function updateOrderTextsOfPartyErased(tx: Tx, scope: Scope, orderIds: readonly string[], partyId: string, marker: string): Promise<void> {
  const params = [scope.marketplaceId, scope.mode, orderIds, partyId, marker];
  // Three independent statements, sent together (docs/performance.md R3).
  await settleAll([
    tx.query(
      `UPDATE orders SET cancellation_reason = $5
        WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3::text[]) AND cancellation_reason IS NOT NULL
          AND ((cancellation_proposed_by = 'buyer' AND buyer_id = $4) OR (cancellation_proposed_by = 'seller' AND seller_id = $4))`,
      params,
    ),
    tx.query(
      `UPDATE order_transitions SET reason = $5
        WHERE marketplace_id = $1 AND mode = $2 AND order_id = ANY($3::text[]) AND actor = $4 AND reason IS NOT NULL AND transition <> 'dispute'`,
      params,
    ),
    tx.query(
      `UPDATE disputes SET
         description = CASE WHEN opened_by = $4 THEN $5 ELSE description END,
         evidence = (SELECT COALESCE(jsonb_agg(CASE WHEN e.item->>'actor' = $4 THEN jsonb_set(e.item, '{text}', to_jsonb($5::text)) ELSE e.item END
                                               ORDER BY e.n), '[]'::jsonb)
                       FROM jsonb_array_elements(evidence) WITH ORDINALITY AS e(item, n))
        WHERE marketplace_id = $1 AND mode = $2 AND order_id = ANY($3::text[])
          AND (opened_by = $4 OR evidence @> jsonb_build_array(jsonb_build_object('actor', $4::text)))`,
      params,
    ),
  ]);
}

/** The orders of these ids, in one statement (expand[]); an id not found is absent. */
export function selectOrdersByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<OrderRow[]> {
  return q.query<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}

/** The disputes of these ids, in one statement (expand[]); an id not found is absent. */
export function selectDisputesByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<DisputeRow[]> {
  return q.query<DisputeRow>(`SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}

/** The listing of each order named (one statement for a batch; the reports module's platform_fees). */
export async function selectOrderListings(q: Queryable, scope: Scope, orderIds: readonly string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await q.query<{ id: string; listing_id: string }>(
    'SELECT id, listing_id FROM orders WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3::text[])',
    [scope.marketplaceId, scope.mode, [...orderIds]],
  );
  return new Map(rows.map((row) => [row.id, row.listing_id]));
}
