// Payout rows → API objects.
import type { Scope } from '../../scope.js';
import type { PayoutLineRow, PayoutRow } from './queries.js';
import type { Payout, PayoutLine } from './schemas.js';

const iso = (at: Date | null): string | null => (at === null ? null : at.toISOString());

export function serializePayout(row: PayoutRow, scope: Scope): Payout {
  return {
    object: 'payout',
    id: row.id,
    seller: row.seller_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    automatic: row.automatic,
    processor_reference: row.processor_reference,
    failure_message: row.failure_message,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    created: row.created_at.toISOString(),
    paid_at: iso(row.paid_at),
    failed_at: iso(row.failed_at),
    canceled_at: iso(row.canceled_at),
    livemode: scope.mode === 'live',
  };
}

export function serializePayoutLine(row: PayoutLineRow): PayoutLine {
  return {
    object: 'payout_line',
    type: row.type as PayoutLine['type'],
    amount: row.amount,
    currency: row.currency,
    balance_transaction: row.balance_transaction,
    ledger_type: row.ledger_type,
    source: row.source_id,
    payment: row.payment_id,
    order: row.order_id,
    created: row.created_at.toISOString(),
  };
}
