// Every SQL statement of the parties module (moderation actions: written here, listed by trust and safety). Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';

export interface ModerationActionValues {
  id: string;
  action: string;
  target_type: string;
  target_id: string;
  reason: string | null;
  flag_id: string | null;
  created_at: Date;
}

export async function insertModerationAction(tx: Tx, scope: Scope, values: ModerationActionValues): Promise<void> {
  await tx.query(
    `INSERT INTO moderation_actions (marketplace_id, mode, id, action, target_type, target_id, reason, flag_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [scope.marketplaceId, scope.mode, values.id, values.action, values.target_type, values.target_id, values.reason, values.flag_id, values.created_at],
  );
}

export type ModerationActionRow = ModerationActionValues;

const MODERATION_ACTION_COLUMNS = 'id, action, target_type, target_id, reason, flag_id, created_at';

export async function selectModerationAction(q: Queryable, scope: Scope, id: string): Promise<ModerationActionRow | null> {
  const rows = await q.query<ModerationActionRow>(
    `SELECT ${MODERATION_ACTION_COLUMNS} FROM moderation_actions WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export function selectModerationActions(q: Queryable, scope: Scope, page: PageRequest, filter: { target?: string }): Promise<ModerationActionRow[]> {
  return selectPage<ModerationActionRow>(q, {
    sql: `SELECT ${MODERATION_ACTION_COLUMNS} FROM moderation_actions WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { target_id: filter.target },
    page,
  });
}
