// What the ledger must hold for one payment that holds an order's money (an order's own payment or
// a checkout share; never a checkout's charge row): its target balance per account, a pure
// function of the payment row and its refunds (docs/ledger.md, "Positions"). syncPaymentLedger
// posts the difference between these targets and what the ledger holds.
import { sellerShare } from './money.js';

export interface PositionPayment {
  status: string;
  amount: number;
  fee_amount: number;
  subtotal: number;
  release_status: string | null;
  release_amount: number;
  /** The release's part kept to pay what the seller owed (recoverOwed's own entries, not a position). */
  release_recovered: number;
  /** What the seller owes after release goes to: the platform (null, platform_loss) or the seller (recover). */
  seller_debt_policy: string | null;
}

export interface PositionRefund {
  amount: number;
  status: string;
  transfer_reversal_amount: number | null;
  transfer_reversal_failure: string | null;
  processor_transfer_reversal: string | null;
}

export interface Positions {
  /** Collected from the buyer (buyer_funds). */
  charged: number;
  /** Refunds that succeeded (refunds_out). */
  refunded: number;
  /** The platform's fee, less the fee's part of the refunds (platform_fees). */
  fees: number;
  /** Sent to the seller: the release made less its recovered part, less the reversals made (transfers_out). */
  transferred: number;
  /** What the seller would owe after release, borne by the platform (platform_losses; policy platform_loss). */
  losses: number;
  /** What the seller owes after release (seller_receivables; policy recover). */
  debt: number;
  /**
   * Owed to the seller, not yet sent (seller:<id>), without the release's `recovery` entry (which
   * recoverOwed writes: seller −recovered), so the account's whole balance is this less it.
   */
  seller: number;
}

/**
 * The targets. Only money that moved counts: a refund once it succeeded (a pending one lowers the
 * planned release, not the ledger), a transfer once released, a reversal once made (its id known,
 * no failure). A release that failed after it was made counts nothing (the processor took it back).
 */
export function targetPositions(payment: PositionPayment, refunds: readonly PositionRefund[]): Positions {
  const charged = payment.status === 'succeeded' ? payment.amount : 0;
  const refunded = refunds.reduce((sum, refund) => sum + (refund.status === 'succeeded' ? refund.amount : 0), 0);
  const feeRefunded = refunded - (payment.subtotal - sellerShare(payment.subtotal, payment.amount, refunded));
  const fees = charged > 0 ? payment.fee_amount - feeRefunded : 0;
  const released = payment.release_status === 'released';
  // Kept from the share when the release started (releasing), given back when it fails.
  const recovered = released || payment.release_status === 'releasing' ? payment.release_recovered : 0;
  const reversed = refunds.reduce((sum, refund) => sum + (reversalMade(refund) ? (refund.transfer_reversal_amount ?? 0) : 0), 0);
  const transferred = released ? payment.release_amount - recovered - reversed : 0;
  const owedRaw = charged - refunded - fees - transferred - recovered;
  const short = released ? Math.max(0, -owedRaw) : 0;
  const recover = payment.seller_debt_policy === 'recover';
  return { charged, refunded, fees, transferred, losses: recover ? 0 : short, debt: recover ? short : 0, seller: owedRaw + short + recovered };
}

const reversalMade = (refund: PositionRefund): boolean => refund.processor_transfer_reversal !== null && refund.transfer_reversal_failure === null;
