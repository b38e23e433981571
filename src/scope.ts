// Every object belongs to one marketplace and one mode; every query names both.
import type { Clock } from './clock.js';
import type { Queryable } from './db/db.js';

export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];

export interface Scope {
  readonly marketplaceId: string;
  readonly mode: Mode;
}

/**
 * The time of a mode: real time in live mode, real time plus the test clock's offset in test mode.
 * Read inside the transaction that uses it, so every process agrees after an advance.
 */
export async function modeNow(q: Queryable, clock: Clock, scope: Scope): Promise<Date> {
  if (scope.mode === 'live') return new Date(clock.nowMs());
  return new Date(clock.nowMs() + (await clockOffsetMs(q, scope)));
}

/** How far the mode's clock runs ahead of real time (the test clock; 0 in live mode). */
export async function clockOffsetMs(q: Queryable, scope: Scope): Promise<number> {
  const rows = await q.query<{ clock_offset_ms: number }>(
    'SELECT clock_offset_ms FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2',
    [scope.marketplaceId, scope.mode],
  );
  return Number(rows[0]?.clock_offset_ms ?? 0);
}
