// Seller verification: a verification starts pending and is approved (verified) or
// rejected; the seller's verification state follows it. Lock order: seller, then verification.
import { mapUniqueViolations } from '../../db/pg-errors.js';
import { emitMove, invalidState, move } from '../../domain/state-machine.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import { modeNow } from '../../scope.js';
import type { OperationContext } from '../../contracts/context.js';
import { requireLiveSeller, setSellerVerification } from '../sellers/index.js';
import { SELLER_VERIFICATION_MACHINE } from '../sellers/index.js';
import * as queries from './queries.js';
import type { CreateVerificationBody, ListVerificationsQuery, Verification } from './schemas.js';
import { serializeVerification } from './serialize.js';
import { VERIFICATION_MACHINE, type VerificationDecision } from './status.js';

export async function createVerification(ctx: OperationContext, sellerId: string, body: CreateVerificationBody): Promise<Verification> {
  const { scope } = ctx;
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const seller = await requireLiveSeller(tx, scope, sellerId, 'start a verification');
        const start = move(SELLER_VERIFICATION_MACHINE, seller.verification_status, 'start', 'platform');
        const now = await modeNow(tx, ctx.clock, scope);
        const row = await queries.insertVerification(tx, scope, {
          id: newId('verification'),
          seller_id: sellerId,
          notes: body.notes ?? null,
          metadata: body.metadata ?? {},
          created_at: now,
        });
        const verification = serializeVerification(row);
        await emitEvent(tx, scope, now, 'verification.created', verification);
        await setSellerVerification(tx, scope, seller, start, now);
        return verification;
      }),
    // The seller row lock already serializes this; the index is the last line of defence.
    { verifications_pending_key: () => invalidState(SELLER_VERIFICATION_MACHINE, 'pending', 'start') },
  );
}

export async function decideVerification(
  ctx: OperationContext,
  id: string,
  decision: VerificationDecision,
  reason: string | null,
): Promise<Verification> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const found = await queries.selectVerification(tx, scope, id);
    if (!found) throw errors.missing('verification', id);
    const seller = await requireLiveSeller(tx, scope, found.seller_id, `have a verification ${decision === 'approve' ? 'approved' : 'rejected'}`);
    const current = await queries.lockVerification(tx, scope, id);
    if (!current) throw errors.missing('verification', id);
    const decided = move(VERIFICATION_MACHINE, current.status, decision, 'platform');
    const followed = move(SELLER_VERIFICATION_MACHINE, seller.verification_status, decision, 'platform');
    const now = await modeNow(tx, ctx.clock, scope);
    const before = serializeVerification(current);
    const after = serializeVerification(await queries.updateVerificationDecision(tx, scope, id, decided.to, reason, now));
    await emitMove(tx, scope, now, decided, after, previousAttributes(before, after));
    await setSellerVerification(tx, scope, seller, followed, now);
    return after;
  });
}

export async function retrieveVerification(ctx: OperationContext, id: string): Promise<Verification> {
  const row = await queries.selectVerification(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('verification', id);
  return serializeVerification(row);
}

export async function listVerifications(ctx: OperationContext, query: ListVerificationsQuery): Promise<ListEnvelope<Verification>> {
  const page = pageRequest(query, 'verification');
  const rows = await queries.selectVerifications(ctx.db, ctx.scope, page, { seller: query.seller, status: query.status });
  return toList(rows.map(serializeVerification), page.limit);
}
