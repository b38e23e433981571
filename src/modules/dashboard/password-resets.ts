// Forgotten passwords: a one-time link, valid one hour, emailed to a user who can log in. The
// request answers the same whether the email has an account or not (it must not tell which), and
// is throttled like a login. The link carries its token after '#', so it never reaches a server's
// logs or a Referer header. Using it sets the password and ends every session and management token.
import { errors } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import { sha256Hex } from '../../secrets.js';
import { findActiveUser, membershipsOfUser, normalizeEmail, replacePassword } from '../accounts/operations.js';
import { hashPassword } from '../accounts/passwords.js';
import { admitLoginAttempt } from '../accounts/throttle.js';
import type { ServiceContext } from '../context.js';
import { queueEmail } from '../emails/outbox.js';
import { insertPasswordReset, lockUsableReset, updateResetsUsed } from './queries.js';
import type { ConfirmPasswordResetBody, PasswordResetDone, PasswordResetRequested, RequestPasswordResetBody } from './schemas.js';
import { endSessionsOfUser } from './sessions.js';

export const PASSWORD_RESET_LIFETIME_MS = 60 * 60 * 1000;

/**
 * POST /manage/v1/password_resets. Counted in the login throttle's buckets under its own email key
 * (so resets and logins do not use up each other's per-email allowance; the client address's
 * bucket is shared). The email is queued in the outbox of the user's newest workspace: the outbox
 * is every email's way out. A user in no workspace gets none (there is no outbox to send it from).
 */
export async function requestPasswordReset(
  ctx: ServiceContext,
  body: RequestPasswordResetBody,
  clientAddress: string,
): Promise<PasswordResetRequested> {
  const email = normalizeEmail(body.email);
  await admitLoginAttempt(ctx.db, ctx.clock, `password_reset:${email}`, clientAddress);
  const answer: PasswordResetRequested = { object: 'password_reset', email };
  const user = await findActiveUser(ctx.db, email);
  if (!user) return answer;
  const [workspace] = await membershipsOfUser(ctx.db, user.id);
  if (!workspace) return answer;
  const token = `pwr_${randomBase62(40)}`;
  const now = new Date(ctx.clock.nowMs());
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_LIFETIME_MS);
  const url = `${ctx.config.publicUrl}/dashboard/reset-password#token=${token}`;
  const text = (link: string) =>
    `Someone (we hope you) asked to reset the password of ${email}.\n\nChoose a new password here:\n${link}\n\n` +
    `The link works once, until ${expiresAt.toISOString()}. If you did not ask for it, ignore this email: your password stays as it is.\n`;
  await ctx.db.transaction(async (tx) => {
    await insertPasswordReset(tx, { token_hash: sha256Hex(token), user_id: user.id, created_at: now, expires_at: expiresAt });
    // Every member may read the outbox: it shows the email without the link.
    await queueEmail(tx, workspace.id, [email], 'Reset your password', text(url), now, {
      displayText: text('[password reset link, sent only to the account holder]'),
    });
  });
  return answer;
}

/** POST /manage/v1/password_resets/confirm: the new password; the user's sessions and tokens end. */
export async function confirmPasswordReset(ctx: ServiceContext, body: ConfirmPasswordResetBody): Promise<PasswordResetDone> {
  const passwordHash = await hashPassword(body.password);
  return ctx.db.transaction(async (tx) => {
    const now = new Date(ctx.clock.nowMs());
    const userId = await lockUsableReset(tx, sha256Hex(body.token), now);
    if (userId === null) throw errors.invalidRequest('The password reset link is not valid: it was already used, or has expired.', 'token');
    const user = await replacePassword(tx, userId, passwordHash);
    await updateResetsUsed(tx, userId, now);
    await endSessionsOfUser(tx, userId);
    return { user };
  });
}
