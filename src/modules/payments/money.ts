// The arithmetic of contract 10, exact to the minor unit (docs/payments.md). Amounts are at most
// 99,999,999,999, so a product of two can pass 2^53: products are taken in BigInt.

/** round_half_up(numerator / denominator) for non-negative integers; denominator > 0. */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/**
 * The seller's share once `refunded` of the payment's `amount` is refunded (all refunds, pending
 * or made): `subtotal − round_half_up(subtotal × refunded / amount)`. A full refund leaves 0, and
 * the customer's fee returns in the same proportion as the rest.
 */
export function sellerShare(subtotal: number, amount: number, refunded: number): number {
  if (amount === 0) return subtotal;
  return subtotal - divideRoundHalfUp(BigInt(subtotal) * BigInt(refunded), BigInt(amount));
}

export interface ReleasedPayment {
  subtotal: number;
  amount: number;
  /** The seller's share at release (fixed then). */
  releaseAmount: number;
  /** Its part kept to pay what the seller owed: never sent, so never reversed. */
  recovered: number;
  /** Reversals pending or made. */
  amountReversed: number;
  /** The share of processor-made refunds after release, which are never reversed. */
  reversalWaived: number;
}

/**
 * What a refund bringing the refunded total to `refundedAfter` takes back from a released
 * transfer: what the seller should have given back by then, less what was waived, at most what
 * the transfer sent (the share less its recovered part), less what was already taken back; never
 * negative (a failed refund whose reversal stood leaves the seller ahead of it). What the transfer
 * cannot give back is what the seller owes (docs/ledger.md).
 */
export function reversalFor(payment: ReleasedPayment, refundedAfter: number): number {
  const owed = payment.releaseAmount - sellerShare(payment.subtotal, payment.amount, refundedAfter);
  const sent = payment.releaseAmount - payment.recovered;
  return Math.max(0, Math.min(owed - payment.reversalWaived, sent) - payment.amountReversed);
}
