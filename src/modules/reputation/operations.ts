// Reputation: events that count toward a buyer's or seller's standing (contract 11). Orders record
// order_completed and dispute_lost, reviews record a review once it is visible and void it when the
// review is removed; each inside the caller's transaction, with its event. The seller profile's
// reputation is computed from the events that are not voided. This module depends on no other.
import type { Queryable, Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { emitEvent } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import type { Scope } from '../../scope.js';
import type { OperationContext } from '../../contracts/context.js';
import { insertReputationEvent, selectReputationEvents, selectReputationTotals, updateReputationEventOfReviewVoided, type ReputationKind } from './queries.js';
import type { ListReputationEventsQuery, ReputationEvent } from './schemas.js';
import { serializeReputationEvent } from './serialize.js';

export interface ReputationInput {
  subject: string;
  kind: ReputationKind;
  order: string;
  review?: string;
  rating?: number;
}

/** Records one reputation event (reputation_event.created), in the caller's transaction. */
export async function recordReputationEvent(tx: Tx, scope: Scope, input: ReputationInput, now: Date): Promise<ReputationEvent> {
  const row = await insertReputationEvent(tx, scope, {
    id: newId('reputationEvent'),
    subject_id: input.subject,
    kind: input.kind,
    order_id: input.order,
    review_id: input.review ?? null,
    rating: input.rating ?? null,
    created_at: now,
  });
  const event = serializeReputationEvent(row);
  await emitEvent(tx, scope, now, 'reputation_event.created', event);
  return event;
}

/** Voids the event counting a review (reputation_event.voided), if it was counted. */
export async function voidReviewReputation(tx: Tx, scope: Scope, reviewId: string, now: Date): Promise<void> {
  const row = await updateReputationEventOfReviewVoided(tx, scope, reviewId);
  if (row) await emitEvent(tx, scope, now, 'reputation_event.voided', serializeReputationEvent(row));
}

export interface ReputationSummary {
  rating_average: number | null;
  rating_count: number;
  completed_orders: number;
}

/** A party's reputation from its events that are not voided; the average has one decimal. */
export async function computeReputation(q: Queryable, scope: Scope, subjectId: string): Promise<ReputationSummary> {
  const totals = await selectReputationTotals(q, scope, subjectId);
  const count = Number(totals.rating_count);
  const sum = Number(totals.rating_sum ?? 0);
  return {
    rating_average: count === 0 ? null : Math.round((sum / count) * 10) / 10,
    rating_count: count,
    completed_orders: Number(totals.completed_orders),
  };
}

export async function listReputationEvents(ctx: OperationContext, query: ListReputationEventsQuery): Promise<ListEnvelope<ReputationEvent>> {
  const page = pageRequest(query, 'reputationEvent');
  const rows = await selectReputationEvents(ctx.db, ctx.scope, query.subject, page);
  return toList(rows.map(serializeReputationEvent), page.limit);
}
