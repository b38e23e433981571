// What follows a category move (its parent changes), plugged in at the top like order-payments.ts:
// listings keep each listing's category path (its category and the ancestors, root first) for
// search's indexes (docs/search.md), and the categories module, which listings depend on, calls
// this hook inside the move's transaction to rewrite them. The listings module's hook is
// registered by src/modules/index.ts (importing it here would make an import cycle).
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';

export interface CategoryMoveHooks {
  /**
   * The moved category and each of its descendants with its new path, root first. Called before
   * the category row is locked, so the lock order stays listing → category (listings/operations.ts).
   */
  rewritePaths(tx: Tx, scope: Scope, paths: ReadonlyMap<string, readonly string[]>): Promise<void>;
}

let hooks: CategoryMoveHooks | null = null;

export function registerCategoryMoveHooks(registered: CategoryMoveHooks): void {
  hooks = registered;
}

export function categoryMoveHooks(): CategoryMoveHooks {
  if (hooks === null) throw new Error('No category move hooks registered (src/modules/index.ts registers them).');
  return hooks;
}
