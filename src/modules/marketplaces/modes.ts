// What other modules ask of a marketplace's mode, whose rows are this module's: the workspace it
// belongs to, the marketplace with the mode's settings, and the test clock's advance.
import type { Queryable, Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { type MarketplaceModeRow, selectMarketplaceMode, selectWorkspaceOfMode, updateClockOffset } from './queries.js';

export type { MarketplaceModeRow } from './queries.js';

/** The workspace of the marketplace, or null when the marketplace or its mode does not exist. */
export function workspaceOfMode(q: Queryable, scope: Scope): Promise<string | null> {
  return selectWorkspaceOfMode(q, scope);
}

/** The marketplace (its workspace, name, currency, creation) with the mode's stored settings; null when either is missing. */
export function findMarketplaceMode(q: Queryable, scope: Scope): Promise<MarketplaceModeRow | null> {
  return selectMarketplaceMode(q, scope);
}

/** Moves the test clock of the mode forward by `addMs`, under the mode row's lock (advances add up). */
export function advanceModeClock(tx: Tx, scope: Scope, addMs: number): Promise<void> {
  return updateClockOffset(tx, scope, addMs);
}
