// Invitations: how a person without an account joins a workspace. Adding their email creates a
// user without a password and a one-time link (7 days) that sets it. The link is answered once to
// the member who invited (so a service without SMTP_URL can still hand it over) and emailed to the
// invitee; the outbox, which every member can read, shows the email without the link.
import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/db.js';
import { errors } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import { queueEmail } from '../emails/outbox.js';
import type { Role } from './access.js';
import type { ManageDeps } from './deps.js';
import { hashPassword } from './passwords.js';
import { toUser, type Session } from './operations.js';
import { issueToken } from './tokens.js';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface InvitationLink {
  /** Where the invitee sets their password; the token is also accepted by POST /manage/v1/invitations/accept. */
  url: string;
  token: string;
  expires_at: string;
}

function hashInvitation(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createInvitation(
  tx: Queryable,
  config: Config,
  input: { workspaceId: string; workspaceName: string; userId: string; email: string; role: Role; invitedBy: string; now: Date },
): Promise<InvitationLink> {
  const token = `inv_${randomBase62(40)}`;
  const expiresAt = new Date(input.now.getTime() + INVITATION_LIFETIME_MS);
  await tx.query(
    `INSERT INTO invitations (token_hash, workspace_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [hashInvitation(token), input.workspaceId, input.userId, input.now, expiresAt],
  );
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
export async function acceptInvitation(deps: ManageDeps, input: { token: string; password: string }): Promise<Session> {
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const now = new Date(deps.clock.nowMs());
    const rows = await tx.query<{ user_id: string }>(
      `SELECT i.user_id FROM invitations i JOIN users u ON u.id = i.user_id
        WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > $2 AND u.password_hash IS NULL
        FOR UPDATE OF i, u`,
      [hashInvitation(input.token), now],
    );
    const invitation = rows[0];
    if (!invitation) throw errors.invalidRequest('The invitation is not valid: it was already used, withdrawn, or has expired.', 'token');
    const [user] = await tx.query<{ id: string; email: string; password_hash: string | null; created_at: Date }>(
      'UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id, email, password_hash, created_at',
      [invitation.user_id, passwordHash],
    );
    await tx.query('UPDATE invitations SET accepted_at = $2 WHERE user_id = $1 AND accepted_at IS NULL', [invitation.user_id, now]);
    const issued = await issueToken(tx, invitation.user_id, now);
    return { user: toUser(user!), token: issued.token, token_expires_at: issued.expiresAt.toISOString() };
  });
}
