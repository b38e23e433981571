// Enabling a seller's payouts when they complete the simulated processor's onboarding page (the
// onboarding module's side of the page gets this step from the root, src/app/wiring.ts), in the
// caller's transaction, in this order:
// 1. sellers sets the payouts (seller.payouts_updated when they changed);
// 2. when that enabled them, payments retries the seller's failed releases (contract 10).
// The processor's own reports of a seller's payouts are settled by settle-processor-report.ts.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import { retryFailedReleases } from '../modules/payments/index.js';
import { payoutsEnabledBy, setSellerPayouts, type Seller, type SellerRow } from '../modules/sellers/index.js';

export async function enableSellerPayouts(tx: Tx, scope: Scope, seller: SellerRow, processorAccount: string, now: Date): Promise<Seller> {
  const after = await setSellerPayouts(tx, scope, seller, 'enabled', processorAccount, now);
  if (payoutsEnabledBy(seller, after)) await retryFailedReleases(tx, scope, seller.id, now);
  return after;
}
