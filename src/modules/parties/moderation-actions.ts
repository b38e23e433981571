// Moderation actions: the record of what was done to a seller, listing or review,
// and why. Suspension writes them now; flags and POST /v1/moderation_actions (trust and safety)
// write them through the same function.
import { Type, type Static } from '@sinclair/typebox';
import type { Queryable, Tx } from '../../db/db.js';
import type { PageRequest } from '../../db/paging.js';
import { emitEvent } from '../../outbox/emit.js';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.js';
import { newId } from '../../ids.js';
import type { Scope } from '../../scope.js';
import { insertModerationAction, selectModerationAction, selectModerationActions, type ModerationActionRow } from './queries.js';

export const ModerationActionKind = StringEnum(['remove_listing', 'remove_review', 'suspend_seller', 'unsuspend_seller']);

export const ModerationAction = Type.Object(
  {
    object: Type.Literal('moderation_action'),
    id: Type.String({ examples: ['mda_01jd2b7v8k0000000000000000'] }),
    action: ModerationActionKind,
    target_type: StringEnum(['seller', 'listing', 'review']),
    target: Type.String(),
    reason: Nullable(Type.String()),
    flag: Nullable(Type.String()),
    created_at: Timestamp,
  },
  {
    examples: [
      {
        object: 'moderation_action',
        id: 'mda_01jd2b7v8k0000000000000000',
        action: 'remove_listing',
        target_type: 'listing',
        target: 'lst_01jd2b7v8k0000000000000000',
        reason: 'Counterfeit goods.',
        flag: 'flg_01jd2b7v8k0000000000000000',
        created_at: '2026-11-21T10:05:00.000Z',
      },
    ],
  },
);
export type ModerationAction = Static<typeof ModerationAction>;

export interface ModerationActionInput {
  action: ModerationAction['action'];
  targetType: ModerationAction['target_type'];
  target: string;
  reason: string | null;
  flag?: string | null;
}

function serializeModerationAction(row: ModerationActionRow): ModerationAction {
  return {
    object: 'moderation_action',
    id: row.id,
    action: row.action as ModerationAction['action'],
    target_type: row.target_type as ModerationAction['target_type'],
    target: row.target_id,
    reason: row.reason,
    flag: row.flag_id,
    created_at: row.created_at.toISOString(),
  };
}

/** One recorded action, or null when it is not in this scope. */
export async function findModerationAction(q: Queryable, scope: Scope, id: string): Promise<ModerationAction | null> {
  const row = await selectModerationAction(q, scope, id);
  return row && serializeModerationAction(row);
}

/** A page of recorded actions, newest first, optionally of one target. */
export async function findModerationActions(q: Queryable, scope: Scope, page: PageRequest, filter: { target?: string }): Promise<ModerationAction[]> {
  return (await selectModerationActions(q, scope, page, filter)).map(serializeModerationAction);
}

/** Records the action and emits moderation_action.created, in the caller's transaction. */
export async function recordModerationAction(tx: Tx, scope: Scope, now: Date, input: ModerationActionInput): Promise<ModerationAction> {
  const action: ModerationAction = {
    object: 'moderation_action',
    id: newId('moderationAction'),
    action: input.action,
    target_type: input.targetType,
    target: input.target,
    reason: input.reason,
    flag: input.flag ?? null,
    created_at: now.toISOString(),
  };
  await insertModerationAction(tx, scope, {
    id: action.id,
    action: action.action,
    target_type: action.target_type,
    target_id: action.target,
    reason: action.reason,
    flag_id: action.flag,
    created_at: now,
  });
  await emitEvent(tx, scope, now, 'moderation_action.created', action);
  return action;
}
