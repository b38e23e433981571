// Settings of one mode of a marketplace, read and changed through the management API.
// A change is merged over the stored settings (platform_fee is replaced as a whole object), and
// clears the API-key cache after commit: cached key contexts carry the settings (rate limit…).
import { errors } from '../../errors.js';
import type { Scope } from '../../scope.js';
import { resolveMarketplace } from '../accounts/index.js';
import type { UserContext } from '../../contracts/context.js';
import { withDefaults, type Settings } from '../../contracts/settings.js';
import * as queries from './queries.js';
import { scopeOf, type ModeParams, type ModeSettings, type UpdateSettingsBody } from './schemas.js';

function serializeModeSettings(scope: Scope, row: queries.ModeSettingsRow | null): ModeSettings {
  if (!row) throw errors.missing('marketplace', scope.marketplaceId, 'id');
  return {
    object: 'settings',
    marketplace: scope.marketplaceId,
    mode: scope.mode,
    ...withDefaults(scope.mode, row.settings),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function retrieveSettings(ctx: UserContext, mode: ModeParams): Promise<ModeSettings> {
  const scope = scopeOf(mode);
  await resolveMarketplace(ctx.db, ctx.principal, scope.marketplaceId, 'read');
  return serializeModeSettings(scope, await queries.selectModeSettings(ctx.db, scope));
}

/** Redirect targets must be web pages: a javascript: or data: URL would pass the uri format. */
function checkUrls(patch: UpdateSettingsBody): void {
  for (const field of ['checkout_success_url', 'checkout_cancel_url'] as const) {
    const value = patch[field];
    if (typeof value === 'string' && !/^https?:\/\//i.test(value)) {
      throw errors.invalidRequest(`${field} must be an http:// or https:// URL.`, field);
    }
  }
}

export async function updateSettings(ctx: UserContext, mode: ModeParams, patch: UpdateSettingsBody): Promise<ModeSettings> {
  const scope = scopeOf(mode);
  checkUrls(patch);
  return ctx.db.transaction(async (tx) => {
    await resolveMarketplace(tx, ctx.principal, scope.marketplaceId, 'configure');
    const current = serializeModeSettings(scope, await queries.lockModeSettings(tx, scope));
    const { object: _object, marketplace: _marketplace, mode: _mode, updated_at: _updatedAt, ...settings } = current;
    const merged: Settings = { ...settings, ...patch };
    const now = new Date(ctx.clock.nowMs());
    await queries.updateModeSettings(tx, scope, merged, now);
    tx.afterCommit(() => ctx.apiKeys.invalidate());
    return { ...current, ...merged, updated_at: now.toISOString() };
  });
}
