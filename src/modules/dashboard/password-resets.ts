// Forgotten passwords: a one-time link, valid one hour, emailed to a user who can log in. The
// request answers the same whether the email has an account or not (it must not tell which); both
// routes are throttled by client address and by target (secret-throttle.ts). The link carries its token after '#', so it never reaches a server's
// logs or a Referer header. Using it sets the password and ends every session and management token.
import { errors } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import { sha256Hex } from '../../secrets.js';
import { findActiveUser, membershipsOfUser, normalizeEmail, replacePassword } from '../accounts/index.js';
import { hashPassword } from '../accounts/index.js';
import { admitSecretAttempt } from '../accounts/index.js';
import type { ServiceContext } from '../../contracts/context.js';
import { queueEmail } from '../emails/index.js';
import { insertPasswordReset, lockUsableReset, selectUsableReset, updateResetsUsed } from './queries.js';
import type { ConfirmPasswordResetBody, PasswordResetDone, PasswordResetRequested, RequestPasswordResetBody } from './schemas.js';
import { endSessionsOfUser } from './sessions.js';

export const PASSWORD_RESET_LIFETIME_MS = 60 * 60 * 1000;

/**
 * POST /manage/v1/password_resets. Counted by client address and by email before anything else
 * (at most 3 emails an hour to one mailbox, whoever asks). The email is queued in the outbox of the user's newest workspace: the outbox
 * is every email's way out. A user in no workspace gets none (there is no outbox to send it from).
 */
export async function requestPasswordReset(
  ctx: ServiceContext,
  body: RequestPasswordResetBody,
  clientAddress: string,
): Promise<PasswordResetRequested> {
  const email = normalizeEmail(body.email);
  await admitSecretAttempt(ctx.db, ctx.clock, 'password_reset_request', { address: clientAddress, target: email });
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

const invalidLink = () => errors.invalidRequest('The password reset link is not valid: it was already used, or has expired.', 'token');

/**
 * POST /manage/v1/password_resets/confirm: the new password; the user's sessions and tokens end.
 * Counted by client address and by the token's hash, then the token is looked up before the new
 * password is hashed, so a guessed token never runs scrypt; hashed outside the transaction, and
 * the token checked again, locked, inside it (it may have been used meanwhile).
 */
export async function confirmPasswordReset(ctx: ServiceContext, body: ConfirmPasswordResetBody, clientAddress: string): Promise<PasswordResetDone> {
  const tokenHash = sha256Hex(body.token);
  await admitSecretAttempt(ctx.db, ctx.clock, 'password_reset_confirm', { address: clientAddress, target: tokenHash });
  if ((await selectUsableReset(ctx.db, tokenHash, new Date(ctx.clock.nowMs()))) === null) throw invalidLink();
  const passwordHash = await hashPassword(body.password, ctx.config.passwordHashCost);
  return ctx.db.transaction(async (tx) => {
    const now = new Date(ctx.clock.nowMs());
    const userId = await lockUsableReset(tx, tokenHash, now);
    if (userId === null) throw invalidLink();
    const user = await replacePassword(tx, userId, passwordHash, now);
    await updateResetsUsed(tx, userId, now);
    await endSessionsOfUser(tx, userId);
    return { user };
  });
}
