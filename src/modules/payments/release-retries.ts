// A failed release retried: by the platform over the API (operations.ts retryRelease), and every
// failed release of a seller whose payouts were just enabled (contract 10), which whoever enables
// them asks for right after (processor reports, the payouts test helper, the onboarding page's flow
// src/flows/enable-seller-payouts.ts).
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { findSellerPayouts } from '../sellers/index.js';
import { LEAVE_TO_WORKER, type CallKick } from './call-queue.js';
import * as moves from './moves.js';
import * as queries from './queries.js';

/** failed → releasing (or failed again with the reason, or nothing_to_release), with the seller's payouts as they are now. */
export async function retryReleaseOf(tx: Tx, scope: Scope, row: queries.PaymentRow, now: Date, kick: CallKick): Promise<queries.PaymentRow> {
  const seller = (await findSellerPayouts(tx, scope, moves.orderPartOf(row).sellerId)) ?? { payouts_status: 'not_started', processor_account: null };
  return moves.startRelease(tx, scope, row, 'platform', seller, now, kick);
}

/**
 * The seller's failed releases retried, in the caller's transaction: called right after the
 * seller's payouts were set to enabled (sellers `payoutsEnabledAnswer`). The transfers are left to
 * the caller's kick or the worker.
 */
export async function retryFailedReleases(tx: Tx, scope: Scope, sellerId: string, now: Date): Promise<void> {
  for (const id of await queries.selectFailedReleaseIds(tx, scope, sellerId)) {
    const row = await queries.lockPayment(tx, scope, id);
    if (row && moves.releaseState(row) === 'failed') await retryReleaseOf(tx, scope, row, now, LEAVE_TO_WORKER);
  }
}
