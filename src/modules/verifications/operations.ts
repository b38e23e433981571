// Seller verification (contract 5): a verification starts pending and is approved (verified) or
// rejected; the seller's verification state follows it. Lock order: seller, then verification.
import { mapUniqueViolations } from '../../db/errors.js';
import type { Tx } from '../../db/db.js';
import { emitMove, invalidState, move, type Row } from '../../domain/state-machine.js';
import { errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../events/emit.js';
import { toList, type ListEnvelope, type PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { PartyDeps } from '../parties/deps.js';
import * as sellerQueries from '../sellers/queries.js';
import { lockLiveSeller } from '../sellers/operations.js';
import type { VerificationState } from '../sellers/schemas.js';
import { serializeSeller } from '../sellers/serialize.js';
import { SELLER_VERIFICATION_MACHINE } from '../sellers/verification-state.js';
import * as queries from './queries.js';
import type { CreateVerificationBody, Verification, VerificationStatus } from './schemas.js';
import { serializeVerification } from './serialize.js';
import { VERIFICATION_MACHINE, type VerificationDecision } from './status.js';

/** Moves the seller's verification state as its table's row says (src/modules/sellers/verification-state.ts). */
async function syncSeller(tx: Tx, scope: Scope, sellerRow: sellerQueries.SellerRow, transition: Row<VerificationState, string, never>, now: Date) {
  const before = serializeSeller(sellerRow);
  await sellerQueries.updateSellerVerification(tx, scope, sellerRow.id, transition.to, now);
  const row = await sellerQueries.findSeller(tx, scope, sellerRow.id);
  if (!row) throw errors.missing('seller', sellerRow.id);
  const after = serializeSeller(row);
  await emitMove(tx, scope, now, transition, after, previousAttributes(before, after));
}

export async function createVerification(
  deps: PartyDeps,
  scope: Scope,
  sellerId: string,
  body: CreateVerificationBody,
): Promise<Verification> {
  return mapUniqueViolations(
    () =>
      deps.db.transaction(async (tx) => {
        const seller = await lockLiveSeller(tx, scope, sellerId, 'start a verification');
        const start = move(SELLER_VERIFICATION_MACHINE, seller.verification_status, 'start', 'platform');
        const now = await modeNow(tx, deps.clock, scope);
        const row = await queries.insertVerification(tx, scope, {
          id: newId('verification'),
          seller_id: sellerId,
          notes: body.notes ?? null,
          metadata: body.metadata ?? {},
          created_at: now,
        });
        const verification = serializeVerification(row);
        await emitEvent(tx, scope, now, 'verification.created', verification);
        await syncSeller(tx, scope, seller, start, now);
        return verification;
      }),
    // The seller row lock already serializes this; the index is the last line of defence.
    { verifications_pending_key: () => invalidState(SELLER_VERIFICATION_MACHINE, 'pending', 'start') },
  );
}

export async function decideVerification(
  deps: PartyDeps,
  scope: Scope,
  id: string,
  decision: VerificationDecision,
  reason: string | null,
): Promise<Verification> {
  return deps.db.transaction(async (tx) => {
    const found = await queries.findVerification(tx, scope, id);
    if (!found) throw errors.missing('verification', id);
    const seller = await lockLiveSeller(tx, scope, found.seller_id, `have a verification ${decision === 'approve' ? 'approved' : 'rejected'}`);
    const current = await queries.findVerification(tx, scope, id, true);
    if (!current) throw errors.missing('verification', id);
    const decided = move(VERIFICATION_MACHINE, current.status, decision, 'platform');
    const followed = move(SELLER_VERIFICATION_MACHINE, seller.verification_status, decision, 'platform');
    const now = await modeNow(tx, deps.clock, scope);
    const before = serializeVerification(current);
    const after = serializeVerification(await queries.decideVerification(tx, scope, id, decided.to, reason, now));
    await emitMove(tx, scope, now, decided, after, previousAttributes(before, after));
    await syncSeller(tx, scope, seller, followed, now);
    return after;
  });
}

export async function retrieveVerification(deps: PartyDeps, scope: Scope, id: string): Promise<Verification> {
  const row = await queries.findVerification(deps.db, scope, id);
  if (!row) throw errors.missing('verification', id);
  return serializeVerification(row);
}

export async function listVerifications(
  deps: PartyDeps,
  scope: Scope,
  page: PageRequest,
  filter: { seller?: string; status?: VerificationStatus },
): Promise<ListEnvelope<Verification>> {
  const rows = await queries.listVerifications(deps.db, scope, page, filter);
  return toList(rows.map(serializeVerification), page.limit);
}
