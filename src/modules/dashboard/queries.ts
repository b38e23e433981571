// Every SQL statement of the dashboard module: sessions and password resets (user-level, found
// by the credential's hash). The session's user and a member's marketplace are asked of the
// accounts and marketplaces modules, whose tables those are.
import type { Queryable, Tx } from '../../db/db.js';

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
}

export async function insertSession(
  tx: Tx,
  row: { id: string; user_id: string; token_hash: string; created_at: Date; expires_at: Date },
): Promise<void> {
  await tx.query(
    'INSERT INTO dashboard_sessions (id, user_id, token_hash, created_at, last_used_at, expires_at) VALUES ($1, $2, $3, $4, $4, $5)',
    [row.id, row.user_id, row.token_hash, row.created_at, row.expires_at],
  );
}

/** A session neither past its absolute end nor idle since `idleSince`. */
export async function selectLiveSession(q: Queryable, tokenHash: string, now: Date, idleSince: Date): Promise<SessionRow | null> {
  const rows = await q.query<SessionRow>(
    `SELECT id, user_id, created_at, last_used_at, expires_at
       FROM dashboard_sessions
      WHERE token_hash = $1 AND expires_at > $2 AND last_used_at > $3`,
    [tokenHash, now, idleSince],
  );
  return rows[0] ?? null;
}

export async function updateSessionUsed(tx: Tx, sessionId: string, now: Date): Promise<void> {
  await tx.query('UPDATE dashboard_sessions SET last_used_at = $2 WHERE id = $1 AND last_used_at < $2', [sessionId, now]);
}

/** Deletes the session, and the user's sessions that ended (absolute end or idle). */
export async function deleteSession(tx: Tx, userId: string, sessionId: string, now: Date, idleSince: Date): Promise<void> {
  await tx.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND (id = $2 OR expires_at <= $3 OR last_used_at <= $4)', [
    userId,
    sessionId,
    now,
    idleSince,
  ]);
}

export async function deleteSessionsOfUser(tx: Tx, userId: string): Promise<void> {
  await tx.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [userId]);
}

// ---- password resets ----

export async function insertPasswordReset(tx: Tx, row: { token_hash: string; user_id: string; created_at: Date; expires_at: Date }): Promise<void> {
  await tx.query('INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
    row.token_hash,
    row.user_id,
    row.created_at,
    row.expires_at,
  ]);
}

/** The user of a usable reset (not used, not expired), the reset row locked. */
/** The same check without a lock, before the new password is hashed (outside any transaction). */
export async function selectUsableReset(q: Queryable, tokenHash: string, now: Date): Promise<string | null> {
  const rows = await q.query<{ user_id: string }>('SELECT user_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2', [
    tokenHash,
    now,
  ]);
  return rows[0]?.user_id ?? null;
}

export async function lockUsableReset(tx: Tx, tokenHash: string, now: Date): Promise<string | null> {
  const rows = await tx.query<{ user_id: string }>(
    'SELECT user_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 FOR UPDATE',
    [tokenHash, now],
  );
  return rows[0]?.user_id ?? null;
}

/** Every open reset of the user is used up with one: a new password makes the other links moot. */
export async function updateResetsUsed(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx.query('UPDATE password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, now]);
}

// ---- the hourly purge (background.ts) ----

/** Deletes up to `max` sessions that ended (absolute end, or idle since `idleSince`). */
export async function deleteEndedSessions(tx: Tx, now: Date, idleSince: Date, max: number): Promise<number> {
  const rows = await tx.query(
    `DELETE FROM dashboard_sessions WHERE id IN
       (SELECT id FROM dashboard_sessions WHERE expires_at <= $1 OR last_used_at <= $2 LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [now, idleSince, max],
  );
  return rows.length;
}

/** Deletes up to `max` password resets past their hour (used or not: either way they open nothing). */
export async function deleteEndedPasswordResets(tx: Tx, now: Date, max: number): Promise<number> {
  const rows = await tx.query(
    `DELETE FROM password_resets WHERE token_hash IN
       (SELECT token_hash FROM password_resets WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING token_hash`,
    [now, max],
  );
  return rows.length;
}
