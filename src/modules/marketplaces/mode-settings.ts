// Settings of one mode of a marketplace (contract 3), read and changed through the management API.
// A change is merged over the stored settings (platform_fee is replaced as a whole object), and
// clears the API-key cache after commit: cached key contexts carry the settings (rate limit…).
import type { Queryable } from '../../db/db.js';
import { errors } from '../../errors.js';
import type { Mode, Scope } from '../../scope.js';
import { resolveMarketplace, type Principal } from '../accounts/access.js';
import type { ManageDeps } from '../accounts/deps.js';
import { withDefaults, type Settings, type SettingsPatch } from '../marketplace/settings.js';

export type ModeSettings = { object: 'settings'; marketplace: string; mode: Mode; updated_at: string } & Settings;

async function readSettings(q: Queryable, scope: Scope, forUpdate: boolean): Promise<ModeSettings> {
  const rows = await q.query<{ settings: unknown; updated_at: Date }>(
    `SELECT settings, updated_at FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [scope.marketplaceId, scope.mode],
  );
  const row = rows[0];
  if (!row) throw errors.missing('marketplace', scope.marketplaceId, 'id');
  return {
    object: 'settings',
    marketplace: scope.marketplaceId,
    mode: scope.mode,
    ...withDefaults(scope.mode, row.settings),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function getModeSettings(deps: ManageDeps, principal: Principal, scope: Scope): Promise<ModeSettings> {
  await resolveMarketplace(deps.db, principal, scope.marketplaceId, 'read');
  return readSettings(deps.db, scope, false);
}

/** Redirect targets must be web pages: a javascript: or data: URL would pass the uri format. */
function checkUrls(patch: SettingsPatch): void {
  for (const field of ['checkout_success_url', 'checkout_cancel_url'] as const) {
    const value = patch[field];
    if (typeof value === 'string' && !/^https?:\/\//i.test(value)) {
      throw errors.invalidRequest(`${field} must be an http:// or https:// URL.`, field);
    }
  }
}

export async function updateModeSettings(
  deps: ManageDeps,
  principal: Principal,
  scope: Scope,
  patch: SettingsPatch,
): Promise<ModeSettings> {
  checkUrls(patch);
  return deps.db.transaction(async (tx) => {
    await resolveMarketplace(tx, principal, scope.marketplaceId, 'configure');
    const current = await readSettings(tx, scope, true);
    const { object: _object, marketplace: _marketplace, mode: _mode, updated_at: _updatedAt, ...settings } = current;
    const merged: Settings = { ...settings, ...patch };
    const now = new Date(deps.clock.nowMs());
    await tx.query('UPDATE marketplace_modes SET settings = $3, updated_at = $4 WHERE marketplace_id = $1 AND mode = $2', [
      scope.marketplaceId,
      scope.mode,
      JSON.stringify(merged),
      now,
    ]);
    tx.afterCommit(() => deps.apiKeys.invalidate());
    return { ...current, ...merged, updated_at: now.toISOString() };
  });
}
