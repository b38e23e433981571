// What trust and safety can flag and act on (docs/trust-and-safety.md). Flags and moderation
// actions (src/modules/moderation) name a target by type and id; each module that owns a flaggable
// object declares, in its module.ts, how to find the target in the scope and which moderation
// actions apply to it, each carried out by the owner in the caller's transaction. The composition
// root gathers them (ctx.hooks.moderationTargets); the moderation module does not change.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';

export const TARGET_TYPES = ['listing', 'review', 'seller', 'buyer'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export const MODERATION_ACTIONS = ['remove_listing', 'remove_review', 'suspend_seller', 'unsuspend_seller'] as const;
export type ModerationActionKind = (typeof MODERATION_ACTIONS)[number];

/** The type of target each action is taken on. */
export const ACTION_TARGET_TYPE = {
  remove_listing: 'listing',
  remove_review: 'review',
  suspend_seller: 'seller',
  unsuspend_seller: 'seller',
} as const satisfies Record<ModerationActionKind, TargetType>;

/** Carries out an action on the target, in the caller's transaction; refusals (404, 409) are the owner's. */
export type ApplyModerationAction = (tx: Tx, scope: Scope, id: string, reason: string, now: Date) => Promise<unknown>;

export interface ModerationTarget {
  /**
   * The target in this scope, or null; may share-lock it for the rest of the transaction (so its
   * erasure waits for the flag, or comes first). A party (seller, buyer) answers its row with
   * erased_at: flags are reported by parties, and an erased one may not report.
   */
  find(tx: Tx, scope: Scope, id: string): Promise<object | null>;
  /** The actions that apply to this type of target (dismissing a flag always applies). */
  actions: Partial<Record<ModerationActionKind, ApplyModerationAction>>;
}

export type ModerationTargets = Readonly<Record<TargetType, ModerationTarget>>;
