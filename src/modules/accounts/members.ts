// Members of a workspace (contract 2): list, add, remove. Adding an email without an account
// creates an invited user and an invitation (invitations.ts); the last owner cannot leave.
import type { Queryable } from '../../db/db.js';
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import { pageRequest, toList, type ListEnvelope } from '../../http/pagination.js';
import { queueEmail } from '../emails/outbox.js';
import { requirePermission, resolveWorkspace, type Principal, type Role } from './access.js';
import type { ManageDeps } from './deps.js';
import { createInvitation, type InvitationLink } from './invitations.js';
import { findUserByEmail, normalizeEmail } from './operations.js';

export interface MemberRecord {
  object: 'member';
  /** The user's id. */
  id: string;
  email: string;
  role: Role;
  /** invited: the user has not set a password yet. */
  status: 'active' | 'invited';
  created_at: string;
}

interface MemberRow {
  user_id: string;
  email: string;
  role: Role;
  invited: boolean;
  created_at: Date;
}

const MEMBER_COLUMNS = `wm.user_id, u.email, wm.role, (u.password_hash IS NULL) AS invited, wm.created_at`;

function toMember(row: MemberRow): MemberRecord {
  return {
    object: 'member',
    id: row.user_id,
    email: row.email,
    role: row.role,
    status: row.invited ? 'invited' : 'active',
    created_at: row.created_at.toISOString(),
  };
}

async function findMember(q: Queryable, workspaceId: string, userId: string): Promise<MemberRecord | null> {
  const rows = await q.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM workspace_members wm JOIN users u ON u.id = wm.user_id
      WHERE wm.workspace_id = $1 AND wm.user_id = $2`,
    [workspaceId, userId],
  );
  return rows[0] ? toMember(rows[0]) : null;
}

export async function listMembers(
  deps: ManageDeps,
  principal: Principal,
  input: { workspace?: string; limit?: number; starting_after?: string },
): Promise<ListEnvelope<MemberRecord>> {
  const access = await resolveWorkspace(deps.db, principal, input.workspace, 'read');
  const page = pageRequest(input, 'user');
  const rows = await deps.db.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM workspace_members wm JOIN users u ON u.id = wm.user_id
      WHERE wm.workspace_id = $1 AND ($2::text IS NULL OR wm.user_id < $2)
      ORDER BY wm.user_id DESC LIMIT $3`,
    [access.workspaceId, page.startingAfter, page.limit + 1],
  );
  return toList(rows.map(toMember), page.limit);
}

export async function addMember(
  deps: ManageDeps,
  principal: Principal,
  input: { workspace?: string; email: string; role: Role },
): Promise<MemberRecord & { invitation: InvitationLink | null }> {
  const email = normalizeEmail(input.email);
  const now = new Date(deps.clock.nowMs());
  return deps.db.transaction(async (tx) => {
    const access = await resolveWorkspace(tx, principal, input.workspace, 'manage_members');
    if (input.role === 'owner') requirePermission(access, 'manage_owners');
    const [workspace] = await tx.query<{ name: string }>('SELECT name FROM workspaces WHERE id = $1 FOR UPDATE', [access.workspaceId]);
    let user = await findUserByEmail(tx, email);
    if (user && (await findMember(tx, access.workspaceId, user.id))) {
      throw errors.exists('This email is already a member of the workspace.', 'email');
    }
    if (!user) {
      user = { id: newId('user'), email, password_hash: null, created_at: now };
      await tx.query('INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, NULL, $3)', [user.id, email, now]);
    }
    await tx.query('INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)', [
      access.workspaceId,
      user.id,
      input.role,
      now,
    ]);
    const workspaceName = workspace?.name ?? access.workspaceId;
    let invitation: InvitationLink | null = null;
    if (user.password_hash === null) {
      invitation = await createInvitation(tx, deps.config, { workspaceId: access.workspaceId, workspaceName, userId: user.id, email, role: input.role, invitedBy: principal.email, now });
    } else {
      await queueEmail(
        tx,
        access.workspaceId,
        [email],
        `You were added to ${workspaceName}`,
        `${principal.email} added you to the workspace "${workspaceName}" as ${input.role}.\n\nLog in at ${deps.config.publicUrl}/dashboard to see it.\n`,
        now,
      );
    }
    const member = await findMember(tx, access.workspaceId, user.id);
    return { ...member!, invitation };
  });
}

/**
 * Removes a member (their pending invitation to this workspace too). Anyone may leave; removing
 * others needs manage_members, and owners only go by an owner's hand. The last owner stays.
 */
export async function removeMember(
  deps: ManageDeps,
  principal: Principal,
  input: { workspace?: string } & ({ userId: string } | { email: string }),
): Promise<MemberRecord> {
  return deps.db.transaction(async (tx) => {
    // By id (DELETE /members/{user_id}) or by email (DELETE /members {email}, contract 2).
    const userId = 'userId' in input ? input.userId : ((await findUserByEmail(tx, input.email))?.id ?? null);
    const leaving = userId === principal.userId;
    const access = await resolveWorkspace(tx, principal, input.workspace, leaving ? 'read' : 'manage_members');
    // Locks the workspace row: two owners removing each other at once cannot leave it without one.
    await tx.query('SELECT 1 FROM workspaces WHERE id = $1 FOR UPDATE', [access.workspaceId]);
    const member = userId === null ? null : await findMember(tx, access.workspaceId, userId);
    if (!member) {
      throw 'userId' in input
        ? errors.missing('member', input.userId, 'user_id')
        : errors.missing('member', normalizeEmail(input.email), 'email');
    }
    if (member.role === 'owner') {
      if (!leaving) requirePermission(access, 'manage_owners');
      const [owners] = await tx.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'`,
        [access.workspaceId],
      );
      if ((owners?.count ?? 0) <= 1) {
        throw errors.invalidState('member', 'the last owner of the workspace', 'be removed; add another owner first');
      }
    }
    await tx.query('DELETE FROM invitations WHERE workspace_id = $1 AND user_id = $2', [access.workspaceId, member.id]);
    await tx.query('DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2', [access.workspaceId, member.id]);
    return member;
  });
}
