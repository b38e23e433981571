// Members of a workspace: list, add, change role, remove. Adding an email makes a pending member
// and an emailed invitation (invitations.ts), with or without an account; the last owner cannot leave.
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { UserContext } from '../../contracts/context.js';
import { requirePermission, resolveWorkspace } from './access.js';
import { createInvitation } from './invitations.js';
import { normalizeEmail } from './operations.js';
import * as queries from './queries.js';
import { admitSecretAttempt } from './secret-throttle.js';
import type { AddMemberBody, Member, UpdateMemberBody, WorkspacePageQuery, WorkspaceQuery } from './schemas.js';
import { serializeMember } from './serialize.js';

export async function listMembers(ctx: UserContext, query: WorkspacePageQuery): Promise<ListEnvelope<Member>> {
  const access = await resolveWorkspace(ctx.db, ctx.principal, query.workspace, 'read');
  const page = pageRequest(query, 'user');
  const rows = await queries.selectMembers(ctx.db, access.workspaceId, page);
  return toList(rows.map(serializeMember), page.limit);
}

/**
 * POST /manage/v1/members: a pending member and their emailed invitation, whether or not the
 * address has an account; they reach the workspace once they accept it (invitations.ts). The
 * email is counted per invited address and per workspace (secret-throttle.ts) outside the
 * transaction, after the caller's right to invite was checked (so strangers cannot use up an
 * address's allowance), and pending members are bounded by MAX_PENDING_INVITATIONS.
 */
export async function addMember(ctx: UserContext, query: WorkspaceQuery, body: AddMemberBody): Promise<Member> {
  const { principal } = ctx;
  const email = normalizeEmail(body.email);
  const checked = await resolveWorkspace(ctx.db, principal, query.workspace, 'manage_members');
  if (body.role === 'owner') requirePermission(checked, 'manage_owners');
  await admitSecretAttempt(ctx.db, ctx.clock, 'invitation_email', { address: email, target: checked.workspaceId });
  const now = new Date(ctx.clock.nowMs());
  return ctx.db.transaction(async (tx) => {
    const access = await resolveWorkspace(tx, principal, checked.workspaceId, 'manage_members');
    if (body.role === 'owner') requirePermission(access, 'manage_owners');
    const workspace = await queries.lockWorkspace(tx, access.workspaceId);
    let user = await queries.selectUserByEmail(tx, email);
    if (user && (await queries.selectMember(tx, access.workspaceId, user.id))) {
      throw errors.exists('This email is already a member of the workspace (or invited to it).', 'email');
    }
    if ((await queries.selectPendingMemberCount(tx, access.workspaceId)) >= ctx.config.limits.pendingInvitations) {
      throw errors.limitExceeded('Pending invitations per workspace', ctx.config.limits.pendingInvitations, 'MAX_PENDING_INVITATIONS', 'remove a pending member first', 'email');
    }
    if (!user) {
      user = { id: newId('user'), email, password_hash: null, email_verified_at: null, created_at: now };
      await queries.insertUser(tx, user);
    }
    await queries.insertMember(tx, access.workspaceId, user.id, body.role, now, null);
    await createInvitation(tx, ctx.config, {
      workspaceId: access.workspaceId,
      workspaceName: workspace?.name ?? access.workspaceId,
      userId: user.id,
      email,
      role: body.role,
      invitedBy: principal.email,
      hasAccount: user.password_hash !== null,
      now,
    });
    const member = await queries.selectMember(tx, access.workspaceId, user.id);
    return serializeMember(member!);
  });
}

/**
 * Removes a member (their pending invitation to this workspace too), named by user id
 * (DELETE /members/{user_id}) or by email (DELETE /members {email}). Anyone may leave;
 * removing others needs manage_members, and owners only go by an owner's hand. The last owner stays.
 */
export async function removeMember(ctx: UserContext, query: WorkspaceQuery, target: { userId: string } | { email: string }): Promise<Member> {
  const { principal } = ctx;
  return ctx.db.transaction(async (tx) => {
    const userId = 'userId' in target ? target.userId : ((await queries.selectUserByEmail(tx, normalizeEmail(target.email)))?.id ?? null);
    const leaving = userId === principal.userId;
    const access = await resolveWorkspace(tx, principal, query.workspace, leaving ? 'read' : 'manage_members');
    // Locks the workspace row: two owners removing each other at once cannot leave it without one.
    await queries.lockWorkspace(tx, access.workspaceId);
    const row = userId === null ? null : await queries.selectMember(tx, access.workspaceId, userId);
    if (!row) {
      throw 'userId' in target
        ? errors.missing('member', target.userId, 'user_id')
        : errors.missing('member', normalizeEmail(target.email), 'email');
    }
    const member = serializeMember(row);
    if (member.role === 'owner') {
      if (!leaving) requirePermission(access, 'manage_owners');
      if ((await queries.selectOwnerCount(tx, access.workspaceId)) <= 1) {
        throw errors.invalidState('member', 'the last owner of the workspace', 'be removed; add another owner first');
      }
    }
    await queries.deleteInvitations(tx, access.workspaceId, member.id);
    await queries.deleteMember(tx, access.workspaceId, member.id);
    return member;
  });
}

/**
 * PATCH /members/{user_id}: a new role, by the rules of adding and removing: it needs
 * manage_members, and manage_owners when the member is or becomes an owner. The last owner cannot
 * be demoted (checked under the workspace lock, as removal is).
 */
export async function changeMemberRole(ctx: UserContext, query: WorkspaceQuery, userId: string, body: UpdateMemberBody): Promise<Member> {
  return ctx.db.transaction(async (tx) => {
    const access = await resolveWorkspace(tx, ctx.principal, query.workspace, 'manage_members');
    await queries.lockWorkspace(tx, access.workspaceId);
    const row = await queries.selectMember(tx, access.workspaceId, userId);
    if (!row) throw errors.missing('member', userId, 'user_id');
    if (row.role === body.role) return serializeMember(row);
    if (row.role === 'owner' || body.role === 'owner') requirePermission(access, 'manage_owners');
    if (row.role === 'owner' && (await queries.selectOwnerCount(tx, access.workspaceId)) <= 1) {
      throw errors.invalidState('member', 'the last owner of the workspace', 'be given another role; make another member owner first');
    }
    await queries.updateMemberRole(tx, access.workspaceId, userId, body.role);
    return serializeMember({ ...row, role: body.role });
  });
}
