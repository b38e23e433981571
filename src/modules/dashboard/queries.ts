// Every SQL statement of the dashboard module: sessions and password resets (user-level, found
// by the credential's hash), and the one read of a marketplace's mode for a member (the same
// tables the API-key cache reads, found by membership instead of by key).
import type { Queryable, Tx } from '../../db/db.js';
import type { BillingState, Role } from '../accounts/index.js';
import type { Mode } from '../../scope.js';

export interface SessionRow {
  id: string;
  user_id: string;
  email: string;
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

/** A session neither past its absolute end nor idle since `idleSince`, with its user's email. */
export async function selectLiveSession(q: Queryable, tokenHash: string, now: Date, idleSince: Date): Promise<SessionRow | null> {
  const rows = await q.query<SessionRow>(
    `SELECT s.id, s.user_id, u.email, s.created_at, s.last_used_at, s.expires_at
       FROM dashboard_sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_used_at > $3`,
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

// ---- a member's view of a marketplace's mode (/v1 as the signed-in member) ----

export interface MemberModeRow {
  role: Role;
  marketplace_id: string;
  name: string;
  currency: string;
  marketplace_created_at: Date;
  settings: unknown;
  workspace_id: string;
  billing_state: BillingState;
}

/** The marketplace's mode with the user's role in its workspace; null unless the user is a member there. */
export async function selectMemberMode(q: Queryable, userId: string, marketplaceId: string, mode: Mode): Promise<MemberModeRow | null> {
  const rows = await q.query<MemberModeRow>(
    `SELECT wm.role, m.id AS marketplace_id, m.name, m.currency, m.created_at AS marketplace_created_at,
            mm.settings, w.id AS workspace_id, w.billing_state
       FROM marketplaces m
       JOIN workspace_members wm ON wm.workspace_id = m.workspace_id AND wm.user_id = $2 AND wm.accepted_at IS NOT NULL
       JOIN marketplace_modes mm ON mm.marketplace_id = m.id AND mm.mode = $3
       JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.id = $1`,
    [marketplaceId, userId, mode],
  );
  return rows[0] ?? null;
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
