// Reading the settings of one mode (their schema and defaults: src/contracts/settings.ts).
import type { Clock } from '../../clock.js';
import { withDefaults, type Settings } from '../../contracts/settings.js';
import type { Queryable } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { selectSettings, selectSettingsAndClockOffset } from './queries.js';

/** Reads the settings inside the caller's transaction (domain rules must not use a cached copy). */
export async function loadSettings(q: Queryable, scope: Scope): Promise<Settings> {
  return withDefaults(scope.mode, await selectSettings(q, scope));
}

/**
 * The settings and the mode's time (as modeNow) from one statement, inside the caller's
 * transaction (docs/performance.md R2).
 */
export async function loadSettingsAndNow(q: Queryable, clock: Clock, scope: Scope): Promise<{ settings: Settings; now: Date }> {
  return settingsAndNowOf(clock, scope, await selectSettingsAndClockOffset(q, scope));
}

/** The settings and the mode's time from a row of marketplace_modes read by the caller (with its other reads). */
export function settingsAndNowOf(clock: Clock, scope: Scope, row: { settings: unknown; clock_offset_ms: number | string }): { settings: Settings; now: Date } {
  const offset = scope.mode === 'live' ? 0 : Number(row.clock_offset_ms);
  return { settings: withDefaults(scope.mode, row.settings), now: new Date(clock.nowMs() + offset) };
}
