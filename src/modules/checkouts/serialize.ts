// Checkout rows → the API object (the same object goes into the checkout's events).
import type { CheckoutRow } from './queries.js';
import type { Checkout } from './schemas.js';

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

/** `paymentUrl`: the charge's hosted page, when the buyer pays through one; else null. */
export function serializeCheckout(row: CheckoutRow, paymentUrl: string | null): Checkout {
  return {
    object: 'checkout',
    id: row.id,
    buyer: row.buyer_id,
    status: row.status,
    orders: row.order_ids,
    currency: row.currency,
    subtotal: Number(row.subtotal),
    fee_amount: Number(row.fee_amount),
    total: Number(row.total),
    payment: row.payment_id,
    payment_url: paymentUrl,
    expires_at: iso(row.expires_at),
    metadata: row.metadata,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
