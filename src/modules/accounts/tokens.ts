// Management tokens (mgt_…): bearer credentials of the management API, handed out by signup, login
// and accepting an invitation. 238 random bits, stored as a SHA-256 hash (like API keys: the text
// itself is never kept), valid for TOKEN_LIFETIME_MS from issue, revocable by logout.
import type { Clock } from '../../clock.js';
import type { Queryable, Tx } from '../../db/db.js';
import { newId, randomBase62 } from '../../ids.js';
import { sha256Hex } from '../../secrets.js';
import type { Principal } from './access.js';
import { deleteManagementTokens, insertManagementToken, selectUserOfToken } from './queries.js';

export const TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const TOKEN_PREFIX = 'mgt_';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export async function issueToken(tx: Tx, userId: string, now: Date): Promise<IssuedToken> {
  const token = `${TOKEN_PREFIX}${randomBase62(40)}`;
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  await insertManagementToken(tx, { id: newId('managementToken'), user_id: userId, token_hash: sha256Hex(token), created_at: now, expires_at: expiresAt });
  return { token, expiresAt };
}

/** The user a token belongs to, or null when it is unknown, expired or revoked. */
export async function principalForToken(q: Queryable, clock: Clock, token: string): Promise<Principal | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = await selectUserOfToken(q, sha256Hex(token), new Date(clock.nowMs()));
  return row ? { userId: row.user_id, email: row.email } : null;
}

/** Logout: the token stops working at once. Expired tokens of the user are swept on the way. */
export async function revokeToken(tx: Tx, principal: Principal, token: string, now: Date): Promise<void> {
  await deleteManagementTokens(tx, principal.userId, sha256Hex(token), now);
}
