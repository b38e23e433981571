// Proving an address: sign-up emails a one-time link (24 hours, only its SHA-256 kept, the token
// after '#' so logs never see it); following it marks the user's address proved. An unproved
// account uses the workspace it created; it joins no other until it accepts an emailed invitation,
// which proves the address the same way (invitations.ts, docs/decisions/accounts.md).
import type { Config } from '../../config.js';
import type { Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import { sha256Hex } from '../../secrets.js';
import type { ServiceContext, UserContext } from '../../contracts/context.js';
import { queueEmail } from '../emails/index.js';
import * as queries from './queries.js';
import type { ConfirmEmailBody, EmailVerification } from './schemas.js';
import { admitSecretAttempt } from './secret-throttle.js';
import { serializeUser } from './serialize.js';

export const VERIFICATION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A new link, queued in the outbox of the user's workspace, in the caller's transaction. */
export async function sendVerificationEmail(tx: Tx, config: Config, input: { userId: string; email: string; workspaceId: string; now: Date }): Promise<void> {
  const token = `evf_${randomBase62(40)}`;
  const expiresAt = new Date(input.now.getTime() + VERIFICATION_LIFETIME_MS);
  await queries.insertEmailVerification(tx, { token_hash: sha256Hex(token), user_id: input.userId, created_at: input.now, expires_at: expiresAt });
  const text = (link: string) =>
    `Confirm that ${input.email} is your address:\n${link}\n\nThe link works once, until ${expiresAt.toISOString()}. ` +
    'If you did not sign up, ignore this email.\n';
  // Every member may read the outbox: it shows the email without the link.
  await queueEmail(tx, input.workspaceId, [input.email], 'Confirm your email address', text(`${config.publicUrl}/dashboard/verify-email#token=${token}`), input.now, {
    displayText: text('[verification link, sent only to the account holder]'),
  });
}

/**
 * POST /manage/v1/email_verifications/confirm: the attempt counted (client address, token hash)
 * before the token is looked up; every open link of the user is used up with it.
 */
export async function confirmEmail(ctx: ServiceContext, body: ConfirmEmailBody, clientAddress: string): Promise<EmailVerification> {
  const tokenHash = sha256Hex(body.token);
  await admitSecretAttempt(ctx.db, ctx.clock, 'email_verification', { address: clientAddress, target: tokenHash });
  return ctx.db.transaction(async (tx) => {
    const now = new Date(ctx.clock.nowMs());
    const userId = await queries.selectUsableVerification(tx, tokenHash, now, true);
    if (userId === null) throw errors.invalidRequest('The verification link is not valid: it was already used, or has expired.', 'token');
    const user = await queries.updateUserVerified(tx, userId, now);
    await queries.updateVerificationsUsed(tx, userId, now);
    return { object: 'email_verification', user: serializeUser(user), status: 'verified' };
  });
}

/** POST /manage/v1/email_verifications: a new link for the signed-in user whose address is not proved yet. */
export async function resendVerification(ctx: UserContext, clientAddress: string): Promise<EmailVerification> {
  const userId = ctx.principal.userId;
  await admitSecretAttempt(ctx.db, ctx.clock, 'email_verification_resend', { address: clientAddress, target: userId });
  return ctx.db.transaction(async (tx) => {
    const now = new Date(ctx.clock.nowMs());
    // The signed-in user exists: a user is never deleted while a credential of theirs works.
    const user = (await queries.selectUserById(tx, userId))!;
    if (user.email_verified_at !== null) throw errors.invalidState('email address', 'already verified', 'be verified again');
    // Email leaves through a workspace's outbox; the newest one the user belongs to.
    const [workspace] = await queries.selectWorkspacesOfUser(tx, userId);
    if (!workspace) throw errors.invalidState('user', 'in no workspace', 'be sent email (it goes out through a workspace outbox)');
    await sendVerificationEmail(tx, ctx.config, { userId, email: user.email, workspaceId: workspace.id, now });
    return { object: 'email_verification', user: serializeUser(user), status: 'sent' };
  });
}
