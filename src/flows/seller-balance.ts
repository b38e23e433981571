// A seller's balance (GET /v1/sellers/{id}/balance): the ledger's sums (pending, available,
// transferred, reversed, paid out, owed) and, from the seller's payout schedule, when they are next paid.
import type { OperationContext } from '../contracts/context.js';
import { retrieveSellerBalance, type SellerBalance } from '../modules/ledger/index.js';
import { loadSettingsAndNow } from '../modules/marketplaces/index.js';
import { nextPayoutAt } from '../modules/payouts/index.js';

export async function sellerBalanceFlow(ctx: OperationContext, sellerId: string): Promise<SellerBalance> {
  const balance = await retrieveSellerBalance(ctx, sellerId);
  const { settings, now } = await loadSettingsAndNow(ctx.db, ctx.clock, ctx.scope);
  const next = await nextPayoutAt(ctx.db, ctx.scope, sellerId, settings, now);
  return { ...balance, next_payout_at: next === null ? null : next.toISOString() };
}
