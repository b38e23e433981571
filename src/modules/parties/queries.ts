// Every SQL statement of the parties module (moderation actions). Each one names marketplace_id and mode.
import type { Tx } from '../../db/db.js';
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
