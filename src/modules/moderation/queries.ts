// Every SQL statement of the moderation module (flags; moderation actions are written and read by
// src/modules/parties/moderation-actions.ts). Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { TargetType } from '../../contracts/moderation.js';
import type { FlagStatus } from './flag-status.js';
import type { FlagReason, FlagResolutionAction } from './schemas.js';

export interface FlagRow {
  id: string;
  target_type: TargetType;
  target_id: string;
  reporter_id: string | null;
  reason: FlagReason;
  description: string | null;
  status: FlagStatus;
  resolution_action: FlagResolutionAction | null;
  resolution_note: string | null;
  moderation_action_id: string | null;
  created_at: Date;
  resolved_at: Date | null;
}

export interface FlagValues {
  target_type: TargetType;
  target_id: string;
  reporter_id: string | null;
  reason: FlagReason;
  description: string | null;
}

export interface FlagResolution {
  action: FlagResolutionAction;
  note: string | null;
  moderation_action_id: string | null;
}

const COLUMNS =
  'id, target_type, target_id, reporter_id, reason, description, status, resolution_action, resolution_note, moderation_action_id, created_at, resolved_at';

export async function insertFlag(tx: Tx, scope: Scope, id: string, values: FlagValues, now: Date): Promise<FlagRow> {
  const rows = await tx.query<FlagRow>(
    `INSERT INTO flags (marketplace_id, mode, id, target_type, target_id, reporter_id, reason, description, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9) RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, values.target_type, values.target_id, values.reporter_id, values.reason, values.description, now],
  );
  return rows[0]!;
}

export async function selectFlag(q: Queryable, scope: Scope, id: string): Promise<FlagRow | null> {
  const rows = await q.query<FlagRow>(`SELECT ${COLUMNS} FROM flags WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export function selectFlags(
  q: Queryable,
  scope: Scope,
  page: PageRequest,
  filter: { status?: FlagStatus; target?: string; targetType?: TargetType },
): Promise<FlagRow[]> {
  return selectPage<FlagRow>(q, {
    sql: `SELECT ${COLUMNS} FROM flags WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { status: filter.status, target_id: filter.target, target_type: filter.targetType },
    page,
  });
}

/**
 * The open flags of a target and the flag `alsoId` (open or not), locked in id order: every
 * resolution locks its target's flags this way, before the target, so two never wait on each other.
 */
export function lockFlagsOfTarget(tx: Tx, scope: Scope, targetId: string, alsoId: string | null): Promise<FlagRow[]> {
  return tx.query<FlagRow>(
    `SELECT ${COLUMNS} FROM flags
      WHERE marketplace_id = $1 AND mode = $2 AND target_id = $3 AND (status = 'open' OR id = $4)
      ORDER BY id FOR UPDATE`,
    [scope.marketplaceId, scope.mode, targetId, alsoId],
  );
}

export async function updateFlagResolved(tx: Tx, scope: Scope, id: string, resolution: FlagResolution, now: Date): Promise<FlagRow> {
  const rows = await tx.query<FlagRow>(
    `UPDATE flags SET status = 'resolved', resolution_action = $4, resolution_note = $5, moderation_action_id = $6, resolved_at = $7
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, resolution.action, resolution.note, resolution.moderation_action_id, now],
  );
  return rows[0]!;
}

/** Erasure: the descriptions of the flags the party reported are nulled; answers those flags' ids. */
export async function updateFlagsOfReporterErased(tx: Tx, scope: Scope, reporterId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE flags SET description = NULL WHERE marketplace_id = $1 AND mode = $2 AND reporter_id = $3 RETURNING id`,
    [scope.marketplaceId, scope.mode, reporterId],
  );
  return rows.map((row) => row.id);
}
