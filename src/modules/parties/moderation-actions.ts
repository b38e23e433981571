// Moderation actions: the record of what was done to a seller, listing or review,
// and why. Suspension writes them now; flags and POST /v1/moderation_actions (trust and safety)
// write them through the same function.
import { Type, type Static } from '@sinclair/typebox';
import type { Tx } from '../../db/db.js';
import { emitEvent } from '../../events/emit.js';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.js';
import { newId } from '../../ids.js';
import type { Scope } from '../../scope.js';
import { insertModerationAction } from './queries.js';

export const ModerationActionKind = StringEnum(['remove_listing', 'remove_review', 'suspend_seller', 'unsuspend_seller']);

export const ModerationAction = Type.Object({
  object: Type.Literal('moderation_action'),
  id: Type.String({ examples: ['mda_01jd2b7v8k0000000000000000'] }),
  action: ModerationActionKind,
  target_type: StringEnum(['seller', 'listing', 'review']),
  target: Type.String(),
  reason: Nullable(Type.String()),
  flag: Nullable(Type.String()),
  created_at: Timestamp,
});
export type ModerationAction = Static<typeof ModerationAction>;

export interface ModerationActionInput {
  action: ModerationAction['action'];
  targetType: ModerationAction['target_type'];
  target: string;
  reason: string | null;
  flag?: string | null;
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
