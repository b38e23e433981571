// Disputes (contract 12): opened by the buyer's dispute of an order (operations.ts, in the order's
// transaction), evidence from either party while open, decided by the platform (operations.ts:
// decideDispute, which also moves the order), and marked overdue once when decision_due_at passes
// undecided. Each move goes through the dispute table in dispute-machine.ts.
import type { Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { applyTimers, emitMove, move, partyOf, timerMove } from '../../domain/state-machine.js';
import { emitEvent } from '../../outbox/emit.js';
import { errors } from '../../errors.js';
import { modeNow, type Scope } from '../../scope.js';
import type { DueTimer } from '../../contracts/background.js';
import { scheduleTimer } from '../../workers/timers.js';
import type { OperationContext } from '../../contracts/context.js';
import type { Settings } from '../../contracts/settings.js';
import { DISPUTE_DECISION_TIMER, DISPUTE_MACHINE } from './dispute-machine.js';
import { insertDispute, lockDispute, lockOrder, selectDispute, selectDisputeOrderId, selectDisputes, updateDisputeEvidence, type OrderRow } from './queries.js';
import type { AddEvidenceBody, Dispute, DisputeOrderBody, ListDisputesQuery } from './schemas.js';
import { serializeDispute } from './serialize.js';

export { DISPUTE_DECISION_TIMER };

/** The dispute of an order just moved to disputed: dispute.created, and its decision-due timer. */
export async function openDispute(tx: Tx, scope: Scope, id: string, order: OrderRow, body: DisputeOrderBody, settings: Settings, now: Date): Promise<Dispute> {
  const decisionDue = new Date(now.getTime() + settings.dispute_decision_seconds * 1000);
  const row = await insertDispute(tx, scope, {
    id,
    order_id: order.id,
    opened_by: body.actor,
    reason: body.reason,
    description: body.description,
    decision_due_at: decisionDue,
    created_at: now,
  });
  await scheduleTimer(tx, scope, DISPUTE_DECISION_TIMER, id, decisionDue);
  const dispute = serializeDispute(row);
  await emitEvent(tx, scope, now, 'dispute.created', dispute);
  return dispute;
}

export async function retrieveDispute(ctx: OperationContext, id: string): Promise<Dispute> {
  const row = await selectDispute(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('dispute', id);
  return serializeDispute(row);
}

export async function listDisputes(ctx: OperationContext, query: ListDisputesQuery): Promise<ListEnvelope<Dispute>> {
  const page = pageRequest(query, 'dispute');
  const rows = await selectDisputes(ctx.db, ctx.scope, { order: query.order, status: query.status }, page);
  return toList(rows.map(serializeDispute), page.limit);
}

/** Evidence from the buyer or the seller of the order while the dispute is open. */
export async function addDisputeEvidence(ctx: OperationContext, id: string, body: AddEvidenceBody): Promise<Dispute> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const { order, dispute } = await lockOrderAndDispute(tx, scope, id);
    const party = partyOf('order', body.actor, { buyer: order.buyer_id, seller: order.seller_id });
    const add = move(DISPUTE_MACHINE, dispute.status, 'add_evidence', party);
    // The dispute is locked, so its array is the count; the bound keeps the array, and the
    // dispute.evidence_added event that carries it whole, finite.
    const limit = ctx.config.limits.evidencePerDispute;
    if (dispute.evidence.length >= limit) {
      throw errors.limitExceeded('Evidence items per dispute', limit, 'MAX_EVIDENCE_PER_DISPUTE', 'the dispute takes no more evidence');
    }
    const at = await modeNow(tx, ctx.clock, scope);
    const row = await updateDisputeEvidence(tx, scope, id, { actor: body.actor, text: body.text, created_at: at.toISOString() });
    const after = serializeDispute(row);
    await emitMove(tx, scope, at, add, after);
    return after;
  });
}

/** The order (locked first: lock order) and its dispute, locked; 404 when the dispute is missing. */
export async function lockOrderAndDispute(tx: Tx, scope: Scope, id: string) {
  const orderId = await selectDisputeOrderId(tx, scope, id);
  if (orderId === null) throw errors.missing('dispute', id);
  const order = (await lockOrder(tx, scope, orderId))!;
  const dispute = (await lockDispute(tx, scope, id))!;
  return { order, dispute };
}

/** dispute.decision_overdue, once: the timer is gone after it ran, and a decision cancels it. */
export async function disputeDecisionTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date): Promise<void> {
  const row = await lockDispute(tx, scope, timer.subjectId);
  const overdue = row && timerMove(DISPUTE_MACHINE, row.status, DISPUTE_DECISION_TIMER);
  if (!row || !overdue || row.decision_due_at > now) return;
  await applyTimers(tx, scope, overdue, row.id);
  await emitMove(tx, scope, now, overdue, serializeDispute(row));
}
