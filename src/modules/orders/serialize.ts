// Order, transition and dispute rows → the API objects (the same objects go into the events).
import type { DisputeRow, OrderRow, TransitionRow } from './queries.js';
import type { Dispute, Order, OrderTransition } from './schemas.js';

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

export function serializeOrder(row: OrderRow): Order {
  return {
    object: 'order',
    id: row.id,
    buyer: row.buyer_id,
    seller: row.seller_id,
    listing: row.listing_id,
    quantity: row.quantity,
    unit_amount: Number(row.unit_amount),
    subtotal: Number(row.subtotal),
    fee_amount: Number(row.fee_amount),
    total: Number(row.total),
    currency: row.currency,
    state: row.state,
    payment: row.payment_id,
    cancellation:
      row.cancellation_proposed_by === null
        ? null
        : { proposed_by: row.cancellation_proposed_by, reason: row.cancellation_reason, proposed_at: iso(row.cancellation_proposed_at)! },
    dispute: row.dispute_id,
    deadline: iso(row.deadline),
    metadata: row.metadata,
    checkout: row.checkout_id,
    booking:
      row.booking_start === null
        ? null
        : { start: iso(row.booking_start)!, end: iso(row.booking_end)!, seats: row.booking_seats!, time_zone: row.booking_time_zone! },
    claimed_at: iso(row.claimed_at),
    completed_at: iso(row.completed_at),
    cancelled_at: iso(row.cancelled_at),
    expired_at: iso(row.expired_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function serializeTransition(row: TransitionRow): OrderTransition {
  return {
    object: 'order_transition',
    id: row.id,
    order: row.order_id,
    from: row.from_state,
    to: row.to_state,
    transition: row.transition,
    actor: row.actor,
    reason: row.reason,
    created_at: iso(row.created_at)!,
  };
}

export function serializeDispute(row: DisputeRow): Dispute {
  return {
    object: 'dispute',
    id: row.id,
    order: row.order_id,
    opened_by: row.opened_by,
    reason: row.reason,
    description: row.description,
    status: row.status,
    outcome: row.outcome,
    decision_note: row.decision_note,
    decision_due_at: iso(row.decision_due_at)!,
    evidence: row.evidence,
    created_at: iso(row.created_at)!,
    decided_at: iso(row.decided_at),
  };
}
