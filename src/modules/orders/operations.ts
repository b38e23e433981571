// Order operations (contract 9). Each owns its transaction, moves the order through the one table
// in machine.ts, writes the move and its transition log entry in one statement, and emits its
// events in the same transaction. Lock order: the order, then its listing (units), then its dispute.
// Creation is a flow (src/flows/place-order.ts) over placing.ts.
import type { Queryable, Tx } from '../../db/db.js';
import { pageOfItems, pageRequest, toList, type ListEnvelope, type PageParams } from '../../db/paging.js';
import { applyTimers, emitMove, move, partyOf, rowOf, timerMove, type Actor, type Party, type Row } from '../../domain/state-machine.js';
import { DomainError, errors } from '../../errors.js';
import { previousAttributes } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import type { Scope } from '../../scope.js';
import type { DueTimer } from '../../contracts/background.js';
import type { OperationContext } from '../../contracts/context.js';
import { returnUnits, sellUnits } from '../listings/index.js';
import type { Settings } from '../../contracts/settings.js';
import { loadSettings, loadSettingsAndNow } from '../marketplaces/index.js';
import { recordReputationEvent } from '../reputation/index.js';
import { lockOrderAndDispute, openDispute } from './disputes.js';
import { DISPUTE_MACHINE } from './dispute-machine.js';
import {
  CLAIM_WINDOW_TIMER,
  CONFIRM_WINDOW_TIMER,
  ORDER_MACHINE,
  PAYMENT_WINDOW_TIMER,
  STATE_WINDOW,
  type OrderOperation,
  type OrderState,
  type OrderTimer,
} from './machine.js';
import { lockOrder, selectCheckoutOrderStates, updateDisputeDecided, selectOrder, selectOrders, selectTransitions, updateOrderMove, type OrderMutable, type OrderRow } from './queries.js';
import type { DecideDisputeBody, Dispute, DisputeOrderBody, ListOrdersQuery, Order, OrderTransition } from './schemas.js';
import { serializeDispute, serializeOrder, serializeTransition } from './serialize.js';

type OrderRowMove = Row<OrderState, OrderOperation, OrderTimer>;

const SECOND = 1000;
const after = (now: Date, seconds: number) => new Date(now.getTime() + seconds * SECOND);

export { feeOf } from './creation.js';

// ---- read ----

export async function retrieveOrder(ctx: OperationContext, id: string): Promise<Order> {
  const row = await selectOrder(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('order', id);
  return serializeOrder(row);
}

export async function listOrders(ctx: OperationContext, query: ListOrdersQuery): Promise<ListEnvelope<Order>> {
  const page = pageRequest(query, 'order');
  const rows = await selectOrders(ctx.db, ctx.scope, { buyer: query.buyer, seller: query.seller, listing: query.listing, state: query.state, checkout: query.checkout }, page);
  return toList(rows.map(serializeOrder), page.limit);
}

/** The order's transitions, oldest first; the first is its creation. Few per order: paged in memory. */
export async function listOrderTransitions(ctx: OperationContext, id: string, query: PageParams): Promise<ListEnvelope<OrderTransition>> {
  if (!(await selectOrder(ctx.db, ctx.scope, id))) throw errors.missing('order', id);
  const rows = await selectTransitions(ctx.db, ctx.scope, id);
  return pageOfItems(rows.map(serializeTransition), query, (item) => item.id);
}

// ---- transitions by the platform or a party ----

export interface ActorInput {
  /** The acting buyer or seller; absent: the platform. */
  actor?: string;
  reason?: string;
}

/**
 * One move asked over the API. Refusals in the order of docs/architecture.md: not a party (403
 * actor_not_party), then the state (409 invalid_state, naming it), then the party (403
 * actor_not_permitted); then the rules the table cannot hold (one proposal at a time, the dispute
 * window).
 */
export async function moveOrder(
  tx: Tx,
  ctx: OperationContext,
  id: string,
  operation: OrderOperation,
  input: ActorInput,
  dispute?: DisputeOrderBody,
): Promise<OrderMove> {
  const { scope } = ctx;
  const order = await lockOrder(tx, scope, id);
  if (!order) throw errors.missing('order', id);
  const actor: Actor = input.actor === undefined ? 'platform' : partyOf('order', input.actor, { buyer: order.buyer_id, seller: order.seller_id });
  const { settings, now } = await loadSettingsAndNow(tx, ctx.clock, scope);
  const proposal = order.cancellation_proposed_by;
  const table = rowOf(ORDER_MACHINE, order.state, operation);
  if (table && (operation === 'accept_cancellation' || operation === 'decline_cancellation') && proposal === null) {
    throw new DomainError('invalid_state', `The order is ${order.state} and has no cancellation proposal; there is nothing to ${operation === 'accept_cancellation' ? 'accept' : 'decline'}.`);
  }
  const row = move(ORDER_MACHINE, order.state, operation, actor, proposal);
  // One payment pays a checkout's orders, so they are paid or expire together: while it is awaited
  // none is cancelled alone. The rule is the checkout's, not a state of the order (an order made
  // alone keeps the table's awaiting_payment → cancelled row), so it sits here, after the table.
  if (row.to === 'cancelled' && order.state === 'awaiting_payment' && order.checkout_id !== null) {
    throw new DomainError('invalid_state', `The order belongs to the checkout ${order.checkout_id}, which awaits its payment; its orders are paid or expire together, so it cannot be cancelled alone.`);
  }
  if (operation === 'propose_cancellation' && proposal !== null) {
    throw new DomainError('invalid_state', `The order is ${order.state} and already has a cancellation proposed by the ${proposal}; one proposal at a time.`);
  }
  if (operation === 'dispute') assertMayDispute(order, settings, now);
  const moved = await applyMove(tx, scope, order, row, now, settings, { actor, actorId: input.actor ?? null, reason: input.reason ?? null, dispute });
  return orderMoveOf(moved, row.to, settings, now);
}

/**
 * An order's move, done: the order as answered, and what its payment's side needs to follow it
 * (the flow asks payments: an ended order's payment is canceled or refunded, a completed one's
 * released, a disputed one's release held).
 */
export interface OrderMove {
  order: Order;
  /** The state the move went to. */
  to: OrderState;
  /** The order's payment (its share of a checkout's charge); null with payments off. */
  paymentId: string | null;
  settings: Settings;
  now: Date;
}

function orderMoveOf(moved: OrderRow, to: OrderState, settings: Settings, now: Date): OrderMove {
  return { order: serializeOrder(moved), to, paymentId: moved.payment_id, settings, now };
}

function assertMayDispute(order: OrderRow, settings: Settings, now: Date): void {
  if (order.dispute_id !== null) {
    throw new DomainError('invalid_state', `The order is ${order.state} and was disputed before (${order.dispute_id}); it cannot be disputed again.`);
  }
  if (order.state === 'completed' && order.completed_at !== null) {
    const closes = after(order.completed_at, settings.dispute_window_seconds);
    if (now >= closes) {
      throw new DomainError('dispute_window_closed', `The dispute window of this order closed at ${closes.toISOString()}.`);
    }
  }
}

// ---- moves by the processor and the platform's dispute decision (for other modules) ----

/** awaiting_payment → committed when its payment succeeds; for the payments module, in its transaction. */
export async function commitPaidOrder(tx: Tx, scope: Scope, orderId: string, settings: Settings, now: Date): Promise<Order> {
  const order = await lockOrder(tx, scope, orderId);
  if (!order) throw errors.missing('order', orderId);
  const row = move(ORDER_MACHINE, order.state, 'pay', 'processor');
  return serializeOrder(await applyMove(tx, scope, order, row, now, settings, { actor: 'processor', actorId: null, reason: null }));
}

/**
 * The platform decides an open dispute: the dispute's decide row (dispute.updated,
 * dispute.decided), then the order's (for the seller: completed; for the buyer: cancelled). The
 * flow then has the payment follow the order, and records dispute_lost for `loser`.
 */
export async function decideDispute(tx: Tx, ctx: OperationContext, id: string, body: DecideDisputeBody): Promise<{ dispute: Dispute; move: OrderMove; loser: string }> {
  const { scope } = ctx;
  const { order, dispute } = await lockOrderAndDispute(tx, scope, id);
  const decide = move(DISPUTE_MACHINE, dispute.status, 'decide', 'platform');
  const { settings, now } = await loadSettingsAndNow(tx, ctx.clock, scope);
  const before = serializeDispute(dispute);
  const after = serializeDispute(await updateDisputeDecided(tx, scope, id, body.outcome, body.note ?? null, now));
  await applyTimers(tx, scope, decide, id);
  await emitMove(tx, scope, now, decide, after, previousAttributes(before, after));
  const outcome: Party = body.outcome;
  const row = move(ORDER_MACHINE, order.state, outcome === 'seller' ? 'decide_for_seller' : 'decide_for_buyer', 'platform');
  const moved = await applyMove(tx, scope, order, row, now, settings, { actor: 'platform', actorId: null, reason: body.note ?? null });
  const loser = outcome === 'seller' ? order.buyer_id : order.seller_id;
  return { dispute: after, move: orderMoveOf(moved, row.to, settings, now), loser };
}

/** The order locked, for a change that depends on its state (a review, a dispute); 404 when missing. */
export async function requireOrder(tx: Tx, scope: Scope, id: string): Promise<OrderRow> {
  const row = await lockOrder(tx, scope, id);
  if (!row) throw errors.missing('order', id);
  return row;
}

/** The states of a checkout's orders (the checkouts module's status follows them). */
export function findCheckoutOrderStates(q: Queryable, scope: Scope, checkoutId: string): Promise<OrderState[]> {
  return selectCheckoutOrderStates(q, scope, checkoutId);
}

export type { OrderRow } from './queries.js';

// ---- timers ----

/**
 * The move a due window timer makes (expire an unpaid or unclaimed order, confirm an unconfirmed
 * one), in the timer's claim; null for a stale timer (the order moved on, or its window moved),
 * which is dropped.
 */
export async function moveOrderByTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date, kind: OrderTimer): Promise<OrderMove | null> {
  const order = await lockOrder(tx, scope, timer.subjectId);
  const row = order && timerMove(ORDER_MACHINE, order.state, kind);
  if (!order || !row || order.deadline === null || order.deadline > now) return null;
  const settings = await loadSettings(tx, scope);
  const moved = await applyMove(tx, scope, order, row, now, settings, { actor: 'timer', actorId: null, reason: null });
  return orderMoveOf(moved, row.to, settings, now);
}

export { CLAIM_WINDOW_TIMER, CONFIRM_WINDOW_TIMER, PAYMENT_WINDOW_TIMER };

// ---- the move itself ----

interface MoveInput {
  actor: Actor;
  /** The acting party's id for the transition log; null for the platform, a timer or the processor. */
  actorId: string | null;
  reason: string | null;
  dispute?: DisputeOrderBody;
}

function mutableOf(row: OrderRow): OrderMutable {
  const { state, units, payment_id, cancellation_proposed_by, cancellation_reason, cancellation_proposed_at, dispute_id, deadline } = row;
  const { claimed_at, completed_at, cancelled_at, expired_at } = row;
  return { state, units, payment_id, cancellation_proposed_by, cancellation_reason, cancellation_proposed_at, dispute_id, deadline, claimed_at, completed_at, cancelled_at, expired_at };
}

/**
 * Applies a row of the table to a locked order: the units (back to the listing when the order ends
 * before it was claimed, sold when it completes or ends after the claim), the fields of the new
 * state, the windows, the transition log, the row's events, the dispute it opens, and the
 * seller's completed order (reputation). What it means for the payment is the flow's to follow.
 */
async function applyMove(tx: Tx, scope: Scope, order: OrderRow, row: OrderRowMove, now: Date, settings: Settings, input: MoveInput): Promise<OrderRow> {
  const next: OrderMutable = { ...mutableOf(order), state: row.to };
  const ends = row.to === 'cancelled' || row.to === 'expired';
  if (order.units === 'reserved' && (ends || row.to === 'completed')) {
    if (ends && order.claimed_at === null && order.completed_at === null) {
      await returnUnits(tx, scope, order.listing_id, order.quantity);
      next.units = 'returned';
    } else {
      await sellUnits(tx, scope, order.listing_id, order.quantity, now);
      next.units = 'sold';
    }
  }
  const window = STATE_WINDOW[row.to];
  next.deadline = window && row.to !== order.state ? after(now, settings[window.setting]) : row.to === order.state ? order.deadline : null;
  if (row.to === 'claimed' && order.state !== 'claimed') next.claimed_at = now;
  if (row.to === 'completed' && next.completed_at === null) next.completed_at = now;
  if (row.to === 'cancelled') next.cancelled_at = now;
  if (row.to === 'expired') next.expired_at = now;
  if (row.operation === 'propose_cancellation') {
    next.cancellation_proposed_by = input.actor as Party;
    next.cancellation_reason = input.reason;
    next.cancellation_proposed_at = now;
  }
  if (row.operation === 'decline_cancellation') {
    next.cancellation_proposed_by = null;
    next.cancellation_reason = null;
    next.cancellation_proposed_at = null;
  }
  const disputeId = row.operation === 'dispute' ? newId('dispute') : null;
  if (disputeId !== null) next.dispute_id = disputeId;

  const moved = await updateOrderMove(
    tx,
    scope,
    order.id,
    next,
    { id: newId('orderTransition'), from: order.state, to: row.to, transition: row.operation, actor: input.actorId, reason: input.reason },
    now,
  );
  const timerTimes: Partial<Record<OrderTimer, Date | null>> = {};
  for (const kind of row.sets ?? []) timerTimes[kind] = moved.deadline;
  await applyTimers(tx, scope, row, order.id, timerTimes);
  await emitMove(tx, scope, now, row, serializeOrder(moved));

  if (disputeId !== null && input.dispute) {
    await openDispute(tx, scope, disputeId, moved, input.dispute, settings, now);
  }
  if (row.to === 'completed' && order.completed_at === null) {
    await recordReputationEvent(tx, scope, { subject: order.seller_id, kind: 'order_completed', order: order.id }, now);
  }
  return moved;
}
