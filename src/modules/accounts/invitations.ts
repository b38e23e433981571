// Invitations: the only way into a workspace one did not create. Adding an email makes a pending
// member (listed as invited, reaching nothing) and a one-time link (7 days) that only the invitee's
// mailbox receives: no API answer or outbox view holds it, so an inviter cannot accept for them.
// Accepting activates that one membership and proves the address. A person without an account
// chooses their password with it; one with an account accepts signed in (the link proves the
// mailbox, the login the account), so nobody else's password is ever set through a link.
// The token travels after '#' in the link, never in a query string that logs and proxies record.
import type { Config } from '../../config.js';
import type { Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import { sha256Hex } from '../../secrets.js';
import type { ServiceContext, UserContext } from '../../contracts/context.js';
import { queueEmail } from '../emails/index.js';
import { hashPassword } from './passwords.js';
import * as queries from './queries.js';
import type { AcceptInvitationBody, JoinWorkspaceBody, Membership, Role, Session } from './schemas.js';
import { admitSecretAttempt } from './secret-throttle.js';
import { serializeUser, serializeWorkspace } from './serialize.js';
import { issueToken } from './tokens.js';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Creates the invitation and queues its email, in the caller's transaction. The link is in the email only. */
export async function createInvitation(
  tx: Tx,
  config: Config,
  input: { workspaceId: string; workspaceName: string; userId: string; email: string; role: Role; invitedBy: string; hasAccount: boolean; now: Date },
): Promise<void> {
  const token = `inv_${randomBase62(40)}`;
  const expiresAt = new Date(input.now.getTime() + INVITATION_LIFETIME_MS);
  await queries.insertInvitation(tx, {
    token_hash: sha256Hex(token),
    workspace_id: input.workspaceId,
    user_id: input.userId,
    created_at: input.now,
    expires_at: expiresAt,
  });
  const intro = `${input.invitedBy} invited you to the workspace "${input.workspaceName}" as ${input.role}.`;
  const how = input.hasAccount ? 'Log in with your account and accept here:' : 'Choose your password and accept here:';
  const text = (link: string) =>
    `${intro}\n\n${how}\n${link}\n\nThe link works once, until ${expiresAt.toISOString()}. If you do not know this workspace, ignore this email.\n`;
  // Every member may read the outbox: it shows the email without the link.
  await queueEmail(tx, input.workspaceId, [input.email], `You are invited to ${input.workspaceName}`, text(`${config.publicUrl}/dashboard/accept-invitation#token=${token}`), input.now, {
    displayText: text('[invitation link, sent only to the invitee]'),
  });
}

const notUsable = () => errors.invalidRequest('The invitation is not valid: it was already used, withdrawn, or has expired.', 'token');

/**
 * The attempt counted (by client address and by the token's hash) and the invitation found,
 * before any password is hashed: a guessed token costs one lookup, never scrypt.
 */
async function findInvitation(ctx: ServiceContext, token: string, clientAddress: string): Promise<queries.UsableInvitationRow & { tokenHash: string }> {
  const tokenHash = sha256Hex(token);
  await admitSecretAttempt(ctx.db, ctx.clock, 'invitation_accept', { address: clientAddress, target: tokenHash });
  const row = await queries.selectUsableInvitation(ctx.db, tokenHash, new Date(ctx.clock.nowMs()));
  if (!row) throw notUsable();
  return { ...row, tokenHash };
}

/** In the accepting transaction: the invitation used, the membership active, the address proved. */
async function useInvitation(tx: Tx, tokenHash: string, now: Date, expect: { hasPassword: boolean; userId?: string }): Promise<queries.UsableInvitationRow> {
  const row = await queries.selectUsableInvitation(tx, tokenHash, now, true);
  if (!row || row.has_password !== expect.hasPassword || (expect.userId !== undefined && row.user_id !== expect.userId)) throw notUsable();
  await queries.updateInvitationAccepted(tx, tokenHash, now);
  await queries.updateMemberAccepted(tx, row.workspace_id, row.user_id, now);
  await queries.updateUserVerified(tx, row.user_id, now);
  return row;
}

/**
 * POST /manage/v1/invitations/accept: a person without an account chooses their password and is
 * logged in. An invitation to an existing account is accepted signed in (joinWorkspace).
 */
export async function acceptInvitation(ctx: ServiceContext, body: AcceptInvitationBody, clientAddress: string): Promise<Session> {
  const found = await findInvitation(ctx, body.token, clientAddress);
  if (found.has_password) {
    throw errors.invalidRequest(
      'This invitation is for an existing account: log in with it, then accept with POST /manage/v1/invitations/join (the dashboard link does both).',
      'token',
    );
  }
  const passwordHash = await hashPassword(body.password, ctx.config.passwordHashCost);
  return ctx.db.transaction(async (tx) => {
    const now = new Date(ctx.clock.nowMs());
    const row = await useInvitation(tx, found.tokenHash, now, { hasPassword: false });
    const user = await queries.updateUserPassword(tx, row.user_id, passwordHash);
    const issued = await issueToken(tx, row.user_id, now);
    return { user: serializeUser(user), token: issued.token, token_expires_at: issued.expiresAt.toISOString() };
  });
}

/** POST /manage/v1/invitations/join: the signed-in user accepts an invitation sent to their address. */
export async function joinWorkspace(ctx: UserContext, body: JoinWorkspaceBody, clientAddress: string): Promise<Membership> {
  const found = await findInvitation(ctx, body.token, clientAddress);
  if (found.user_id !== ctx.principal.userId) {
    throw errors.invalidRequest('This invitation was sent to another email address than the one you are signed in with.', 'token');
  }
  return ctx.db.transaction(async (tx) => {
    const now = new Date(ctx.clock.nowMs());
    const row = await useInvitation(tx, found.tokenHash, now, { hasPassword: true, userId: ctx.principal.userId });
    const [workspace] = (await queries.selectWorkspacesOfUser(tx, row.user_id)).filter((w) => w.id === row.workspace_id);
    return { object: 'workspace_membership', workspace: serializeWorkspace(workspace!), role: workspace!.role };
  });
}
