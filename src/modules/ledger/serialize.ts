// Ledger rows → API objects.
import type { BalanceTransaction } from './schemas.js';
import type { LedgerLineRow } from './queries.js';

export function serializeBalanceTransaction(row: LedgerLineRow): BalanceTransaction {
  return {
    object: 'balance_transaction',
    id: row.id,
    entry: row.entry_id,
    type: row.type as BalanceTransaction['type'],
    amount: Number(row.amount),
    currency: row.currency,
    account: row.account,
    side: row.side,
    source: row.source_id,
    payment: row.payment_id,
    order: row.order_id,
    seller: row.seller_id,
    processor_reference: row.processor_ref,
    created: row.created_at.toISOString(),
  };
}
