// The emails a workspace was sent, as its members see them (GET /manage/v1/emails): the access
// check is this module's, the outbox the emails module's.
import type { Principal } from '../../contracts/context.js';
import type { ListEnvelope } from '../../db/paging.js';
import type { Queryable } from '../../db/db.js';
import { listEmails, type EmailRecord } from '../emails/index.js';
import { resolveWorkspace } from './access.js';

/** GET /manage/v1/emails for a member of the workspace. */
export async function listWorkspaceEmails(
  deps: { db: Queryable },
  principal: Principal,
  query: { workspace?: string; limit?: number; starting_after?: string },
): Promise<ListEnvelope<EmailRecord>> {
  const access = await resolveWorkspace(deps.db, principal, query.workspace, 'read');
  return listEmails(deps.db, access.workspaceId, query);
}
