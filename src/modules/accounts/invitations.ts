// Invitations: how a person without an account joins a workspace. Adding their email creates a
// user without a password and a one-time link (7 days) that sets it. The link is answered once to
// the member who invited (so a service without SMTP_URL can still hand it over) and emailed to the
// invitee; the outbox, which every member can read, shows the email without the link.
import type { Config } from '../../config.js';
import type { Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import { sha256Hex } from '../../secrets.js';
import type { ServiceContext } from '../context.js';
import { queueEmail } from '../emails/outbox.js';
import { hashPassword } from './passwords.js';
import { insertInvitation, lockInvitedUser, updateInvitationsAccepted, updateUserPassword } from './queries.js';
import type { AcceptInvitationBody, Invitation, Role, Session } from './schemas.js';
import { serializeUser } from './serialize.js';
import { issueToken } from './tokens.js';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Creates the invitation and queues its email, in the caller's transaction; the link is answered once. */
export async function createInvitation(
  tx: Tx,
  config: Config,
  input: { workspaceId: string; workspaceName: string; userId: string; email: string; role: Role; invitedBy: string; now: Date },
): Promise<Invitation> {
  const token = `inv_${randomBase62(40)}`;
  const expiresAt = new Date(input.now.getTime() + INVITATION_LIFETIME_MS);
  await insertInvitation(tx, {
    token_hash: sha256Hex(token),
    workspace_id: input.workspaceId,
    user_id: input.userId,
    created_at: input.now,
    expires_at: expiresAt,
  });
  const url = `${config.publicUrl}/dashboard/accept-invitation?token=${token}`;
  const intro = `${input.invitedBy} invited you to the workspace "${input.workspaceName}" as ${input.role}.`;
  const outro = `The link works until ${expiresAt.toISOString()}.`;
  await queueEmail(
    tx,
    input.workspaceId,
    [input.email],
    `You are invited to ${input.workspaceName}`,
    `${intro}\n\nChoose your password here:\n${url}\n\n${outro}\n`,
    input.now,
    { displayText: `${intro}\n\nChoose your password here:\n[invitation link, sent only to the invitee]\n\n${outro}\n` },
  );
  return { url, token, expires_at: expiresAt.toISOString() };
}

/**
 * POST /manage/v1/invitations/accept: sets the invited user's password and logs them in. Every
 * pending invitation of that user is used up with it (they all only set the same password).
 */
export async function acceptInvitation(ctx: ServiceContext, body: AcceptInvitationBody): Promise<Session> {
  const passwordHash = await hashPassword(body.password);
  return ctx.db.transaction(async (tx) => {
    const now = new Date(ctx.clock.nowMs());
    const userId = await lockInvitedUser(tx, sha256Hex(body.token), now);
    if (userId === null) throw errors.invalidRequest('The invitation is not valid: it was already used, withdrawn, or has expired.', 'token');
    const user = await updateUserPassword(tx, userId, passwordHash);
    await updateInvitationsAccepted(tx, userId, now);
    const issued = await issueToken(tx, userId, now);
    return { user: serializeUser(user), token: issued.token, token_expires_at: issued.expiresAt.toISOString() };
  });
}
