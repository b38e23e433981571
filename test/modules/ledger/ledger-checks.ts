// What the money property tests assert of the ledger after every step (docs/ledger.md): every
// entry of the payments balances, each payment holds exactly its target positions, and the seller's
// balance is the sum of the seller account's lines.
import { expect } from 'vitest';
import { paymentLedgerDrift } from '../../../src/modules/payments/ledger-sync.js';
import type { Json } from '../../helpers/factories.js';
import type { TestContext, TestResponse } from '../../helpers/harness.js';

async function allLines(ctx: TestContext, query: string): Promise<Json[]> {
  const lines: Json[] = [];
  let cursor: string | null = null;
  do {
    const res: TestResponse = await ctx.request(`/v1/balance_transactions?${query}&limit=100${cursor ? `&starting_after=${cursor}` : ''}`);
    expect(res.status, res.text).toBe(200);
    lines.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor !== null);
  return lines;
}

export async function expectLedgerConsistent(ctx: TestContext, paymentIds: readonly string[], sellerIds: readonly string[]): Promise<void> {
  const scope = { marketplaceId: ctx.marketplaceId, mode: 'test' as const };
  for (const paymentId of paymentIds) {
    const byEntry = new Map<string, number>();
    for (const line of await allLines(ctx, `payment=${paymentId}`)) {
      const signed = ['buyer_funds', 'disputes', 'platform_losses'].includes(line.account) ? line.amount : -line.amount;
      byEntry.set(line.entry, (byEntry.get(line.entry) ?? 0) + signed);
    }
    for (const [entry, sum] of byEntry) expect(sum, `entry ${entry} of ${paymentId}`).toBe(0);
    expect(await paymentLedgerDrift(ctx.db, scope, paymentId), `positions of ${paymentId}`).toEqual([]);
  }
  for (const sellerId of sellerIds) {
    const owed = (await allLines(ctx, `account=seller:${sellerId}`)).reduce((sum, line) => sum + line.amount, 0);
    const balance = (await ctx.request(`/v1/sellers/${sellerId}/balance`)).body;
    expect(balance.pending).toBe(owed);
    // A seller paid on a schedule (docs/payouts.md): the available account and the payouts count too.
    const available = (await allLines(ctx, `account=seller_available:${sellerId}`)).reduce((sum, line) => sum + line.amount, 0);
    expect(balance.available).toBe(available);
    expect(balance.net).toBe(balance.pending + balance.available + balance.transferred + balance.paid_out - balance.reversed);
  }
}
