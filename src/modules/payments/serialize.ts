// Rows to API objects. checkout_url and client_secret show only while payment is due.
import type { CardDisputeRow, PaymentRow, RefundRow } from './queries.js';
import type { CardDispute, Payment, Refund } from './schemas.js';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function serializePayment(row: PaymentRow): Payment {
  const due = row.status === 'awaiting_payment';
  return {
    object: 'payment',
    id: row.id,
    order: row.order_id,
    checkout: row.checkout_id,
    charge_payment: row.charge_payment_id,
    method: row.method,
    status: row.status,
    amount: row.amount,
    fee_amount: row.fee_amount,
    currency: row.currency,
    checkout_url: due ? row.checkout_url : null,
    client_secret: due ? row.client_secret : null,
    last_failure: row.last_failure,
    amount_refunded: row.amount_refunded,
    release: {
      status: row.release_status,
      amount: row.release_amount,
      amount_reversed: row.amount_reversed,
      recovered: row.release_recovered,
      failure: row.release_failure,
      released_at: iso(row.released_at),
    },
    processor: {
      payment_intent: row.processor_payment_intent,
      checkout_session: row.processor_checkout_session,
      charge: row.processor_charge,
      transfer: row.processor_transfer,
    },
    metadata: row.metadata,
    paid_at: iso(row.paid_at),
    canceled_at: iso(row.canceled_at),
    amount_mismatch: row.amount_mismatch,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function serializeRefund(row: RefundRow): Refund {
  return {
    object: 'refund',
    id: row.id,
    payment: row.payment_id,
    order: row.order_id,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    initiated_by: row.initiated_by,
    status: row.status,
    failure_reason: row.failure_reason,
    transfer_reversal:
      row.transfer_reversal_amount === null
        ? null
        : {
            amount: row.transfer_reversal_amount,
            status: row.transfer_reversal_failure !== null ? 'failed' : row.processor_transfer_reversal !== null ? 'succeeded' : 'pending',
            failure_reason: row.transfer_reversal_failure,
          },
    processor: { refund: row.processor_refund, transfer_reversal: row.processor_transfer_reversal },
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function serializeCardDispute(row: CardDisputeRow): CardDispute {
  return {
    object: 'card_dispute',
    id: row.id,
    payment: row.payment_id,
    order: row.order_id,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    evidence_due_by: iso(row.evidence_due_by),
    processor: { dispute: row.processor_dispute },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
