// Account rows as management API objects.
import type { MemberRow, UserRow, WorkspaceRow } from './queries.js';
import type { Member, User, Workspace } from './schemas.js';

export function serializeUser(row: UserRow): User {
  return {
    object: 'user',
    id: row.id,
    email: row.email,
    email_verified_at: row.email_verified_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

export function serializeWorkspace(row: WorkspaceRow): Workspace {
  return { object: 'workspace', id: row.id, name: row.name, billing_state: row.billing_state, created_at: row.created_at.toISOString() };
}

export function serializeMember(row: MemberRow): Member {
  return {
    object: 'member',
    id: row.user_id,
    email: row.email,
    role: row.role,
    status: row.invited ? 'invited' : 'active',
    created_at: row.created_at.toISOString(),
  };
}
