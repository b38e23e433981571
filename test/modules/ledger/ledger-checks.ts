// What the money property tests assert of the ledger after every step (docs/ledger.md): every
// entry of the payments and sellers balances, each payment holds exactly its target positions, the
// seller's balance is the sum of the seller account's lines, owed the sum of the seller's
// seller_receivables lines, and net adds them up.
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

const DEBIT_ACCOUNTS = ['buyer_funds', 'disputes', 'seller_receivables', 'platform_losses'];

function expectEntriesBalance(lines: readonly Json[], of: string): void {
  const byEntry = new Map<string, number>();
  for (const line of lines) {
    const signed = DEBIT_ACCOUNTS.includes(line.account) ? line.amount : -line.amount;
    byEntry.set(line.entry, (byEntry.get(line.entry) ?? 0) + signed);
  }
  for (const [entry, sum] of byEntry) expect(sum, `entry ${entry} of ${of}`).toBe(0);
}

export async function expectLedgerConsistent(ctx: TestContext, paymentIds: readonly string[], sellerIds: readonly string[]): Promise<void> {
  const scope = { marketplaceId: ctx.marketplaceId, mode: 'test' as const };
  for (const paymentId of paymentIds) {
    expectEntriesBalance(await allLines(ctx, `payment=${paymentId}`), paymentId);
    expect(await paymentLedgerDrift(ctx.db, scope, paymentId), `positions of ${paymentId}`).toEqual([]);
  }
  for (const sellerId of sellerIds) {
    const lines = await allLines(ctx, `seller=${sellerId}`);
    expectEntriesBalance(lines, sellerId);
    const pending = lines.filter((line) => line.account === `seller:${sellerId}`).reduce((sum, line) => sum + line.amount, 0);
    const owed = lines.filter((line) => line.account === 'seller_receivables').reduce((sum, line) => sum + line.amount, 0);
    const balance = (await ctx.request(`/v1/sellers/${sellerId}/balance`)).body;
    expect(balance.pending).toBe(pending);
    expect(balance.owed).toBe(owed);
    // A seller paid on a schedule (docs/payouts.md): the available account and the payouts count too.
    const available = lines.filter((line) => line.account === `seller_available:${sellerId}`).reduce((sum, line) => sum + line.amount, 0);
    expect(balance.available).toBe(available);
    expect(balance.net).toBe(balance.pending + balance.available + balance.transferred + balance.paid_out - balance.reversed - balance.owed);
  }
}
