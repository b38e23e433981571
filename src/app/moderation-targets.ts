// Wiring: what trust and safety can flag and act on (docs/trust-and-safety.md). Flags and
// moderation actions (src/modules/moderation) name a target by type and id; this table says, per
// type, how to tell the target exists in the scope and which moderation actions apply to it, each
// carried out by the module that owns the target in the caller's transaction. A module that comes
// to own a flaggable object adds its entry here; the moderation module does not change.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import { findBuyerForShare } from '../modules/buyers/operations.js';
import { findListingForShare, setListingRemoved } from '../modules/listings/operations.js';
import { findReviewForShare, removeReviewInTx } from '../modules/reviews/operations.js';
import type { ModerationAction } from '../modules/parties/moderation-actions.js';
import { findSellerForShare, setSellerSuspension } from '../modules/sellers/operations.js';

export const TARGET_TYPES = ['listing', 'review', 'seller', 'buyer'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

type ModerationActionKind = ModerationAction['action'];

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
  /** Whether the target is in this scope; may share-lock it for the rest of the transaction. */
  exists(tx: Tx, scope: Scope, id: string): Promise<boolean>;
  /** The actions that apply to this type of target (dismissing a flag always applies). */
  actions: Partial<Record<ModerationActionKind, ApplyModerationAction>>;
}

export const moderationTargets: Partial<Record<TargetType, ModerationTarget>> = {
  listing: {
    exists: async (tx, scope, id) => (await findListingForShare(tx, scope, id)) !== null,
    actions: { remove_listing: setListingRemoved },
  },
  review: {
    exists: async (tx, scope, id) => (await findReviewForShare(tx, scope, id)) !== null,
    actions: { remove_review: removeReviewInTx },
  },
  seller: {
    exists: async (tx, scope, id) => (await findSellerForShare(tx, scope, id)) !== null,
    actions: {
      suspend_seller: (tx, scope, id, reason, now) => setSellerSuspension(tx, scope, id, 'suspend', reason, now),
      unsuspend_seller: (tx, scope, id, reason, now) => setSellerSuspension(tx, scope, id, 'unsuspend', reason, now),
    },
  },
  buyer: {
    exists: async (tx, scope, id) => (await findBuyerForShare(tx, scope, id)) !== null,
    actions: {},
  },
};

/**
 * Who may report a flag: a buyer or a seller of the scope, found (share-locked, so its erasure
 * waits for the flag or comes first) by id, or null. An erased party is found with erased_at set.
 */
export async function findReporter(tx: Tx, scope: Scope, id: string): Promise<{ erased_at: Date | null } | null> {
  if (id.startsWith('sel_')) return findSellerForShare(tx, scope, id);
  if (id.startsWith('byr_')) return findBuyerForShare(tx, scope, id);
  return null;
}
