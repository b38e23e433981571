// The ledger's targets of an order's payment (src/modules/payments/positions.ts), on the worked
// example of docs/payments.md (4613 = 4500 + 113) and the cases docs/ledger.md lists.
import { describe, expect, it } from 'vitest';
import { targetPositions, type PositionPayment, type PositionRefund } from '../../../src/modules/payments/positions.js';

const paid: PositionPayment = { status: 'succeeded', amount: 4613, fee_amount: 113, subtotal: 4500, release_status: 'held', release_amount: 4500, release_recovered: 0, seller_debt_policy: null };
const refund = (amount: number, more: Partial<PositionRefund> = {}): PositionRefund => ({
  amount, status: 'succeeded', transfer_reversal_amount: null, transfer_reversal_failure: null, processor_transfer_reversal: null, ...more,
});

describe('targetPositions', () => {
  it('holds nothing before the payment succeeds', () => {
    expect(targetPositions({ ...paid, status: 'awaiting_payment', release_status: null }, [])).toEqual({ charged: 0, refunded: 0, fees: 0, transferred: 0, losses: 0, debt: 0, seller: 0 });
  });

  it('paid and held: the seller is owed the subtotal, the platform the fee', () => {
    expect(targetPositions(paid, [])).toEqual({ charged: 4613, refunded: 0, fees: 113, transferred: 0, losses: 0, debt: 0, seller: 4500 });
  });

  it('a refund before release returns the fee in proportion (28 of 1153); a pending one counts nothing yet', () => {
    expect(targetPositions({ ...paid, release_amount: 3375 }, [refund(1153), refund(10, { status: 'pending' })])).toEqual({
      charged: 4613, refunded: 1153, fees: 85, transferred: 0, losses: 0, debt: 0, seller: 3375,
    });
  });

  it('released, then refunded after release with the reversal made: nothing owed, nothing lost', () => {
    const released = { ...paid, release_status: 'released', release_amount: 3375 };
    const refunds = [refund(1153), refund(2000, { transfer_reversal_amount: 1951, processor_transfer_reversal: 'trr_1' })];
    expect(targetPositions(released, refunds)).toEqual({ charged: 4613, refunded: 3153, fees: 36, transferred: 1424, losses: 0, debt: 0, seller: 0 });
  });

  it('a reversal refused (shortfall) or a processor refund (waived) after release: the platform bears the seller part', () => {
    const released = { ...paid, release_status: 'released', release_amount: 3375 };
    const shortfall = [refund(1153), refund(2000, { transfer_reversal_amount: 1951, transfer_reversal_failure: 'short' })];
    expect(targetPositions(released, shortfall)).toMatchObject({ transferred: 3375, losses: 1951, debt: 0, seller: 0 });
    expect(targetPositions(released, [refund(1153), refund(2000)])).toMatchObject({ transferred: 3375, losses: 1951, debt: 0, seller: 0 });
  });

  it('a refund failing after its reversal was made: the platform owes the seller the reversed part', () => {
    const released = { ...paid, release_status: 'released', release_amount: 4500 };
    const failed = [refund(2000, { status: 'failed', transfer_reversal_amount: 1951, processor_transfer_reversal: 'trr_1' })];
    expect(targetPositions(released, failed)).toEqual({ charged: 4613, refunded: 0, fees: 113, transferred: 2549, losses: 0, debt: 0, seller: 1951 });
  });

  it('a release failing after it was made counts no transfer; a late payment refunded in full leaves nothing', () => {
    expect(targetPositions({ ...paid, release_status: 'failed' }, [])).toMatchObject({ transferred: 0, seller: 4500 });
    const late = { ...paid, release_status: 'nothing_to_release', release_amount: 0 };
    expect(targetPositions(late, [refund(4613)])).toEqual({ charged: 4613, refunded: 4613, fees: 0, transferred: 0, losses: 0, debt: 0, seller: 0 });
  });

  it('policy recover: what the seller would owe after release is their debt (seller_receivables), not a loss', () => {
    const released = { ...paid, release_status: 'released', release_amount: 3375, seller_debt_policy: 'recover' };
    const shortfall = [refund(1153), refund(2000, { transfer_reversal_amount: 1951, transfer_reversal_failure: 'short' })];
    expect(targetPositions(released, shortfall)).toMatchObject({ transferred: 3375, losses: 0, debt: 1951, seller: 0 });
  });

  it("a release that kept part of the share for the seller's debt transfers the rest; the seller position holds the kept part (its recovery entry takes it)", () => {
    const kept = { ...paid, release_status: 'released', release_amount: 4500, release_recovered: 1200, seller_debt_policy: 'recover' };
    expect(targetPositions(kept, [])).toEqual({ charged: 4613, refunded: 0, fees: 113, transferred: 3300, losses: 0, debt: 0, seller: 1200 });
    expect(targetPositions({ ...kept, release_status: 'releasing' }, [])).toMatchObject({ transferred: 0, seller: 4500 });
    expect(targetPositions({ ...kept, release_recovered: 4500 }, [])).toMatchObject({ transferred: 0, seller: 4500 });
    // Refunded in full with the 3300 transfer reversed: the kept 1200 is owed again.
    const refunds = [refund(4613, { transfer_reversal_amount: 3300, processor_transfer_reversal: 'trr_1' })];
    expect(targetPositions(kept, refunds)).toEqual({ charged: 4613, refunded: 4613, fees: 0, transferred: 0, losses: 0, debt: 1200, seller: 1200 });
  });
});
