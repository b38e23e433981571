// Management tokens (mgt_…): bearer credentials of the management API, handed out by signup, login
// and accepting an invitation. 238 random bits, stored as a SHA-256 hash (like API keys: the text
// itself is never kept), valid for TOKEN_LIFETIME_MS from issue, revocable by logout.
import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../db/db.js';
import { newId, randomBase62 } from '../../ids.js';
import type { Principal } from './access.js';

export const TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const TOKEN_PREFIX = 'mgt_';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function issueToken(q: Queryable, userId: string, now: Date): Promise<IssuedToken> {
  const token = `${TOKEN_PREFIX}${randomBase62(40)}`;
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  await q.query('INSERT INTO management_tokens (id, user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    newId('managementToken'),
    userId,
    hashToken(token),
    now,
    expiresAt,
  ]);
  return { token, expiresAt };
}

/** The user a token belongs to, or null when it is unknown, expired or revoked. */
export async function principalForToken(q: Queryable, clock: Clock, token: string): Promise<Principal | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const rows = await q.query<{ user_id: string; email: string }>(
    `SELECT t.user_id, u.email FROM management_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.expires_at > $2`,
    [hashToken(token), new Date(clock.nowMs())],
  );
  const row = rows[0];
  return row ? { userId: row.user_id, email: row.email } : null;
}

/** Logout: the token stops working at once. Expired tokens of the user are swept on the way. */
export async function revokeToken(q: Queryable, clock: Clock, principal: Principal, token: string): Promise<void> {
  await q.query('DELETE FROM management_tokens WHERE user_id = $1 AND (token_hash = $2 OR expires_at <= $3)', [
    principal.userId,
    hashToken(token),
    new Date(clock.nowMs()),
  ]);
}
