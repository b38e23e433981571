// Flag rows as API objects.
import type { FlagRow } from './queries.js';
import type { Flag } from './schemas.js';

export function serializeFlag(row: FlagRow): Flag {
  return {
    object: 'flag',
    id: row.id,
    target_type: row.target_type,
    target: row.target_id,
    reporter: row.reporter_id,
    reason: row.reason,
    description: row.description,
    status: row.status,
    resolution:
      row.resolution_action === null
        ? null
        : { action: row.resolution_action, note: row.resolution_note, moderation_action: row.moderation_action_id },
    created_at: row.created_at.toISOString(),
    resolved_at: row.resolved_at ? row.resolved_at.toISOString() : null,
  };
}
