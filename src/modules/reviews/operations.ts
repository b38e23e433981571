// Reviews (contract 11): after a completed order each party may review the other once, within
// review_window_seconds of completion. Double-blind: a review stays hidden (rating and body null)
// until the other party's review arrives or the window closes (the review.window timer, set with
// the first review), then both become visible together (review.visible) and each counts toward
// its subject's reputation. Removal (moderation) voids that count. Lock order: the order, then
// its reviews.
import type { Tx } from '../../db/db.js';
import { mapUniqueViolations } from '../../db/pg-errors.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { partyOf } from '../../domain/state-machine.js';
import { DomainError, errors } from '../../errors.js';
import { emitEvent } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { DueTimer } from '../../contracts/background.js';
import { scheduleTimer } from '../../workers/timers.js';
import type { OperationContext } from '../../contracts/context.js';
import { loadSettings } from '../marketplaces/index.js';
import { requireOrder } from '../orders/index.js';
import { recordReputationEvent, voidReviewReputation } from '../reputation/index.js';
import {
  insertReview,
  lockReview,
  lockReviewShared,
  selectReview,
  selectReviewsOfOrder,
  selectVisibleReviews,
  updateReviewRemoved,
  updateReviewsOfOrderVisible,
  type ReviewRow,
} from './queries.js';
import type { CreateReviewBody, ListReviewsQuery, Review } from './schemas.js';
import { serializeReview } from './serialize.js';

/** Closes an order's review window: its hidden reviews become visible. Keyed by the order. */
export const REVIEW_WINDOW_TIMER = 'review.window';

const alreadyReviewed = (role: string) => new DomainError('already_reviewed', `The ${role} already reviewed this order.`, 'actor');

export async function createReview(ctx: OperationContext, orderId: string, body: CreateReviewBody): Promise<Review> {
  const { scope } = ctx;
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const order = await requireOrder(tx, scope, orderId);
        const role = partyOf('order', body.actor, { buyer: order.buyer_id, seller: order.seller_id });
        if (order.state !== 'completed' || order.completed_at === null) {
          throw errors.invalidState('order', order.state, 'be reviewed (only a completed order can)');
        }
        const now = await modeNow(tx, ctx.clock, scope);
        const settings = await loadSettings(tx, scope);
        const closes = new Date(order.completed_at.getTime() + settings.review_window_seconds * 1000);
        if (now >= closes) throw new DomainError('review_window_closed', `The review window of this order closed at ${closes.toISOString()}.`);
        const existing = await selectReviewsOfOrder(tx, scope, order.id);
        if (existing.some((review) => review.author_role === role)) throw alreadyReviewed(role);

        const row = await insertReview(tx, scope, {
          id: newId('review'),
          order_id: order.id,
          author_role: role,
          author_id: body.actor,
          subject_id: role === 'buyer' ? order.seller_id : order.buyer_id,
          rating: body.rating,
          body: body.body ?? null,
          created_at: now,
        });
        await emitEvent(tx, scope, now, 'review.created', serializeReview(row));
        if (existing.length === 0) {
          await scheduleTimer(tx, scope, REVIEW_WINDOW_TIMER, order.id, closes);
          return serializeReview(row);
        }
        const shown = await revealReviews(tx, scope, order.id, now);
        return serializeReview(shown.find((review) => review.id === row.id) ?? row);
      }),
    { reviews_order_author_key: () => alreadyReviewed('party') },
  );
}

/** The order's hidden reviews become visible (review.visible), and each not removed counts. */
async function revealReviews(tx: Tx, scope: Scope, orderId: string, now: Date) {
  const shown = await updateReviewsOfOrderVisible(tx, scope, orderId);
  for (const row of shown) {
    await emitEvent(tx, scope, now, 'review.visible', serializeReview(row));
    if (!row.removed) {
      await recordReputationEvent(tx, scope, { subject: row.subject_id, kind: 'review', order: row.order_id, review: row.id, rating: row.rating }, now);
    }
  }
  return shown;
}

/** The review window of an order closed: its reviews become visible. */
export async function reviewWindowTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date): Promise<void> {
  await requireOrder(tx, scope, timer.subjectId);
  await revealReviews(tx, scope, timer.subjectId, now);
}

export async function retrieveReview(ctx: OperationContext, id: string): Promise<Review> {
  const row = await selectReview(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('review', id);
  return serializeReview(row);
}

/** Visible reviews about a buyer or seller, not removed, newest first. */
export async function listReviews(ctx: OperationContext, query: ListReviewsQuery): Promise<ListEnvelope<Review>> {
  const page = pageRequest(query, 'review');
  const rows = await selectVisibleReviews(ctx.db, ctx.scope, query.subject, page);
  return toList(rows.map(serializeReview), page.limit);
}

export async function removeReview(ctx: OperationContext, id: string, reason: string): Promise<Review> {
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    return removeReviewInTx(tx, ctx.scope, id, reason, now);
  });
}

/**
 * Removes a review in the caller's transaction (moderation's remove_review too): review.removed,
 * and its reputation event voided (reputation_event.voided) if it was counted. 404 when missing;
 * 409 invalid_state when already removed.
 */
export async function removeReviewInTx(tx: Tx, scope: Scope, reviewId: string, reason: string, now: Date): Promise<Review> {
  const before = await lockReview(tx, scope, reviewId);
  if (!before) throw errors.missing('review', reviewId);
  if (before.removed) throw errors.invalidState('review', 'removed', 'be removed');
  const review = serializeReview(await updateReviewRemoved(tx, scope, reviewId, reason));
  await emitEvent(tx, scope, now, 'review.removed', review);
  await voidReviewReputation(tx, scope, reviewId, now);
  return review;
}

/** The review share-locked (a flag raised against it), or null when it is not in this scope. */
export function findReviewForShare(tx: Tx, scope: Scope, id: string): Promise<ReviewRow | null> {
  return lockReviewShared(tx, scope, id);
}
