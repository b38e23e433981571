// Every SQL statement of the accounts module, the login throttle's included. These tables
// sit above marketplaces: workspaces and their members are scoped by workspace; users, their
// management tokens and invitations by the user or the credential's hash.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { BillingState, Role } from './schemas.js';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  /** When the address was proved (a verification link or an accepted invitation); null: not yet. */
  email_verified_at: Date | null;
  created_at: Date;
}

export interface WorkspaceRow {
  id: string;
  name: string;
  billing_state: BillingState;
  created_at: Date;
}

export interface MemberRow {
  user_id: string;
  email: string;
  role: Role;
  invited: boolean;
  created_at: Date;
}

export interface MembershipRow {
  workspace_id: string;
  role: Role;
}

// ---- users ----

const USER_COLUMNS = 'id, email, password_hash, email_verified_at, created_at';

/** Emails are kept lower case; the unique index is on lower(email). */
export async function selectUserByEmail(q: Queryable, email: string): Promise<UserRow | null> {
  const rows = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = $1`, [email]);
  return rows[0] ?? null;
}

export async function selectUserById(q: Queryable, userId: string): Promise<UserRow | null> {
  const rows = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [userId]);
  return rows[0] ?? null;
}

export async function insertUser(tx: Tx, user: UserRow): Promise<void> {
  await tx.query('INSERT INTO users (id, email, password_hash, email_verified_at, created_at) VALUES ($1, $2, $3, $4, $5)', [
    user.id,
    user.email,
    user.password_hash,
    user.email_verified_at,
    user.created_at,
  ]);
}

export async function updateUserPassword(tx: Tx, userId: string, passwordHash: string): Promise<UserRow> {
  const rows = await tx.query<UserRow>(`UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}`, [userId, passwordHash]);
  return rows[0]!;
}

/** The address is proved; the first proof's time is kept. */
export async function updateUserVerified(tx: Tx, userId: string, now: Date): Promise<UserRow> {
  const rows = await tx.query<UserRow>(
    `UPDATE users SET email_verified_at = coalesce(email_verified_at, $2) WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    [userId, now],
  );
  return rows[0]!;
}

/**
 * A login's re-hash with today's parameters: only over the hash it verified, so a password changed
 * meanwhile (a reset) is never overwritten with the old one.
 */
export async function updateUserPasswordHashIfUnchanged(tx: Tx, userId: string, verifiedHash: string, passwordHash: string): Promise<void> {
  await tx.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [userId, verifiedHash, passwordHash]);
}

// ---- workspaces ----

/**
 * The bound on workspaces per account (MAX_WORKSPACES_PER_USER): the user's row is locked before
 * counting, so two creates by one user take turns and the second counts the first's workspace.
 * FOR NO KEY UPDATE leaves the foreign keys' FOR KEY SHARE of other inserts naming the user free.
 */
export async function lockUserForBound(tx: Tx, userId: string): Promise<void> {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
}

/** Workspaces the user owns (an accepted owner membership): what MAX_WORKSPACES_PER_USER counts. */
export async function countOwnedWorkspaces(tx: Tx, userId: string): Promise<number> {
  const rows = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM workspace_members WHERE user_id = $1 AND role = 'owner' AND accepted_at IS NOT NULL`,
    [userId],
  );
  return Number(rows[0]?.count ?? 0);
}

/** The workspace's row, locked before a count of its marketplaces (MAX_MARKETPLACES_PER_WORKSPACE). */
export async function lockWorkspaceRow(tx: Tx, workspaceId: string): Promise<void> {
  await tx.query('SELECT 1 FROM workspaces WHERE id = $1 FOR NO KEY UPDATE', [workspaceId]);
}

export async function insertWorkspace(tx: Tx, workspace: WorkspaceRow): Promise<void> {
  await tx.query('INSERT INTO workspaces (id, name, billing_state, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)', [
    workspace.id,
    workspace.name,
    workspace.billing_state,
    workspace.created_at,
  ]);
}

/** The workspace, locked: changes of its membership are made one at a time. */
export async function lockWorkspace(tx: Tx, workspaceId: string): Promise<{ name: string } | null> {
  const rows = await tx.query<{ name: string }>('SELECT name FROM workspaces WHERE id = $1 FOR UPDATE', [workspaceId]);
  return rows[0] ?? null;
}

export async function updateWorkspaceBillingState(tx: Tx, workspaceId: string, state: BillingState, now: Date): Promise<WorkspaceRow | null> {
  const rows = await tx.query<WorkspaceRow>(
    'UPDATE workspaces SET billing_state = $2, updated_at = $3 WHERE id = $1 RETURNING id, name, billing_state, created_at',
    [workspaceId, state, now],
  );
  return rows[0] ?? null;
}

/** Every workspace of the user, newest first, with the user's role there. */
export function selectWorkspacesOfUser(q: Queryable, userId: string): Promise<Array<WorkspaceRow & { role: Role }>> {
  return q.query(
    `SELECT w.id, w.name, w.billing_state, w.created_at, wm.role
       FROM workspace_members wm JOIN workspaces w ON w.id = wm.workspace_id
      WHERE wm.user_id = $1 AND wm.accepted_at IS NOT NULL ORDER BY w.id DESC`,
    [userId],
  );
}

// ---- members ----
// A member whose invitation is not accepted yet (accepted_at null) is listed, and reaches nothing:
// every query that grants access asks for accepted_at IS NOT NULL.

const MEMBER_COLUMNS = 'wm.user_id, u.email, wm.role, (wm.accepted_at IS NULL) AS invited, wm.created_at';

export async function selectMember(q: Queryable, workspaceId: string, userId: string): Promise<MemberRow | null> {
  const rows = await q.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM workspace_members wm JOIN users u ON u.id = wm.user_id
      WHERE wm.workspace_id = $1 AND wm.user_id = $2`,
    [workspaceId, userId],
  );
  return rows[0] ?? null;
}

/** A page of the workspace's members, newest user first. */
export function selectMembers(q: Queryable, workspaceId: string, page: PageRequest): Promise<MemberRow[]> {
  return selectPage<MemberRow>(q, {
    sql: `SELECT ${MEMBER_COLUMNS} FROM workspace_members wm JOIN users u ON u.id = wm.user_id WHERE wm.workspace_id = $1`,
    params: [workspaceId],
    idColumn: 'wm.user_id',
    page,
  });
}

/** A member: active (acceptedAt = now: a workspace's creator) or pending an invitation (null). */
export async function insertMember(tx: Tx, workspaceId: string, userId: string, role: Role, now: Date, acceptedAt: Date | null): Promise<void> {
  await tx.query('INSERT INTO workspace_members (workspace_id, user_id, role, created_at, accepted_at) VALUES ($1, $2, $3, $4, $5)', [
    workspaceId,
    userId,
    role,
    now,
    acceptedAt,
  ]);
}

/** The pending member becomes active. */
export async function updateMemberAccepted(tx: Tx, workspaceId: string, userId: string, now: Date): Promise<void> {
  await tx.query('UPDATE workspace_members SET accepted_at = $3 WHERE workspace_id = $1 AND user_id = $2 AND accepted_at IS NULL', [
    workspaceId,
    userId,
    now,
  ]);
}

/** Members of the workspace still waiting for their invitation to be accepted. */
export async function selectPendingMemberCount(q: Queryable, workspaceId: string): Promise<number> {
  const rows = await q.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM workspace_members WHERE workspace_id = $1 AND accepted_at IS NULL',
    [workspaceId],
  );
  return rows[0]?.count ?? 0;
}

export async function updateMemberRole(tx: Tx, workspaceId: string, userId: string, role: Role): Promise<void> {
  await tx.query('UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2', [workspaceId, userId, role]);
}

export async function selectOwnerCount(q: Queryable, workspaceId: string): Promise<number> {
  const rows = await q.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM workspace_members WHERE workspace_id = $1 AND role = 'owner' AND accepted_at IS NOT NULL`,
    [workspaceId],
  );
  return rows[0]?.count ?? 0;
}

export async function deleteMember(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2', [workspaceId, userId]);
}

/** The user's memberships: the one of the named workspace, else up to two (to tell "only one" from "several"). */
export function selectMemberships(q: Queryable, userId: string, workspaceId: string | null): Promise<MembershipRow[]> {
  return q.query<MembershipRow>(
    `SELECT workspace_id, role FROM workspace_members
      WHERE user_id = $1 AND accepted_at IS NOT NULL AND ($2::text IS NULL OR workspace_id = $2)
      ORDER BY workspace_id LIMIT 2`,
    [userId, workspaceId],
  );
}

/** The user's membership of the workspace that owns the marketplace, with the workspace's billing state. */
export async function selectMembershipOfMarketplace(
  q: Queryable,
  userId: string,
  marketplaceId: string,
): Promise<(MembershipRow & { billing_state: BillingState }) | null> {
  const rows = await q.query<MembershipRow & { billing_state: BillingState }>(
    `SELECT m.workspace_id, wm.role, w.billing_state FROM marketplaces m
       JOIN workspace_members wm ON wm.workspace_id = m.workspace_id AND wm.user_id = $2 AND wm.accepted_at IS NOT NULL
       JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.id = $1`,
    [marketplaceId, userId],
  );
  return rows[0] ?? null;
}

/** The addresses of the workspace's active members (an accepted invitation), in address order. */
export async function selectMemberAddresses(q: Queryable, workspaceId: string): Promise<string[]> {
  const rows = await q.query<{ email: string }>(
    `SELECT u.email FROM workspace_members wm JOIN users u ON u.id = wm.user_id
      WHERE wm.workspace_id = $1 AND wm.accepted_at IS NOT NULL ORDER BY u.email`,
    [workspaceId],
  );
  return rows.map((row) => row.email);
}

// ---- invitations ----

export async function insertInvitation(
  tx: Tx,
  invitation: { token_hash: string; workspace_id: string; user_id: string; created_at: Date; expires_at: Date },
): Promise<void> {
  await tx.query('INSERT INTO invitations (token_hash, workspace_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    invitation.token_hash,
    invitation.workspace_id,
    invitation.user_id,
    invitation.created_at,
    invitation.expires_at,
  ]);
}

export interface UsableInvitationRow {
  workspace_id: string;
  user_id: string;
  /** The invited user already has an account with a password: they accept signed in. */
  has_password: boolean;
}

/**
 * A usable invitation (not accepted, not expired, its member still pending); with `lock`, the
 * invitation and its member are locked, so it is accepted once.
 */
export async function selectUsableInvitation(q: Queryable, tokenHash: string, now: Date, lock = false): Promise<UsableInvitationRow | null> {
  const rows = await q.query<UsableInvitationRow>(
    `SELECT i.workspace_id, i.user_id, (u.password_hash IS NOT NULL) AS has_password
       FROM invitations i
       JOIN users u ON u.id = i.user_id
       JOIN workspace_members wm ON wm.workspace_id = i.workspace_id AND wm.user_id = i.user_id AND wm.accepted_at IS NULL
      WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > $2
      ${lock ? 'FOR UPDATE OF i, wm, u' : ''}`,
    [tokenHash, now],
  );
  return rows[0] ?? null;
}

export async function updateInvitationAccepted(tx: Tx, tokenHash: string, now: Date): Promise<void> {
  await tx.query('UPDATE invitations SET accepted_at = $2 WHERE token_hash = $1', [tokenHash, now]);
}

export async function deleteInvitations(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM invitations WHERE workspace_id = $1 AND user_id = $2', [workspaceId, userId]);
}

// ---- email verifications ----

export async function insertEmailVerification(
  tx: Tx,
  row: { token_hash: string; user_id: string; created_at: Date; expires_at: Date },
): Promise<void> {
  await tx.query('INSERT INTO email_verifications (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
    row.token_hash,
    row.user_id,
    row.created_at,
    row.expires_at,
  ]);
}

/** The user of a usable verification link (not used, not expired); with `lock`, the row locked. */
export async function selectUsableVerification(q: Queryable, tokenHash: string, now: Date, lock = false): Promise<string | null> {
  const rows = await q.query<{ user_id: string }>(
    `SELECT user_id FROM email_verifications WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 ${lock ? 'FOR UPDATE' : ''}`,
    [tokenHash, now],
  );
  return rows[0]?.user_id ?? null;
}

/** Every open link of the user is used up with one: the address is proved. */
export async function updateVerificationsUsed(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx.query('UPDATE email_verifications SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, now]);
}

// ---- management tokens ----

export async function insertManagementToken(
  tx: Tx,
  token: { id: string; user_id: string; token_hash: string; created_at: Date; expires_at: Date },
): Promise<void> {
  await tx.query('INSERT INTO management_tokens (id, user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    token.id,
    token.user_id,
    token.token_hash,
    token.created_at,
    token.expires_at,
  ]);
}

/** The user of a token that has not expired (a revoked token is deleted). */
export async function selectUserOfToken(q: Queryable, tokenHash: string, now: Date): Promise<{ user_id: string; email: string } | null> {
  const rows = await q.query<{ user_id: string; email: string }>(
    `SELECT t.user_id, u.email FROM management_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.expires_at > $2`,
    [tokenHash, now],
  );
  return rows[0] ?? null;
}

/** Deletes the user's token with this hash, and the user's expired tokens. */
export async function deleteManagementTokens(tx: Tx, userId: string, tokenHash: string, now: Date): Promise<void> {
  await tx.query('DELETE FROM management_tokens WHERE user_id = $1 AND (token_hash = $2 OR expires_at <= $3)', [userId, tokenHash, now]);
}

/** Every management token of the user (a password reset): none survives the old password. */
export async function deleteAllManagementTokens(tx: Tx, userId: string): Promise<void> {
  await tx.query('DELETE FROM management_tokens WHERE user_id = $1', [userId]);
}

// ---- login attempts (throttle.ts) ----

export interface LoginAttemptRow {
  bucket: string;
  attempts: number;
  expires_at: Date;
}

/**
 * One statement: each bucket's row is created, or counted up, or (its window over) started again
 * at 1. Rows are locked in the order given, the same order in every statement. A statement of its
 * own (not necessarily in a transaction): the count must be visible to parallel attempts at once.
 */
export function upsertLoginAttempts(q: Queryable, now: Date, buckets: ReadonlyArray<{ bucket: string; expiresAt: Date }>): Promise<LoginAttemptRow[]> {
  const values = buckets.map((_, i) => `($${i * 2 + 2}, 1, $${i * 2 + 3}::timestamptz)`).join(', ');
  const params = [now, ...buckets.flatMap(({ bucket, expiresAt }) => [bucket, expiresAt])];
  return q.query<LoginAttemptRow>(
    `INSERT INTO login_attempts (bucket, attempts, expires_at) VALUES ${values}
     ON CONFLICT (bucket) DO UPDATE SET
       attempts = CASE WHEN login_attempts.expires_at <= $1 THEN 1 ELSE login_attempts.attempts + 1 END,
       expires_at = CASE WHEN login_attempts.expires_at <= $1 THEN EXCLUDED.expires_at ELSE login_attempts.expires_at END
     RETURNING bucket, attempts, expires_at`,
    params,
  );
}

export async function deleteLoginAttempts(q: Queryable, bucket: string): Promise<void> {
  await q.query('DELETE FROM login_attempts WHERE bucket = $1', [bucket]);
}

/** Takes one attempt back from each bucket whose window is still open. */
export async function updateLoginAttemptsTakenBack(q: Queryable, buckets: readonly string[], now: Date): Promise<void> {
  await q.query('UPDATE login_attempts SET attempts = greatest(attempts - 1, 0) WHERE bucket = ANY($1::text[]) AND expires_at > $2', [buckets, now]);
}

/** Deletes up to `max` rows whose window ended; SKIP LOCKED, so it never waits for a counting attempt. */
export async function deleteEndedLoginAttempts(q: Queryable, now: Date, max: number): Promise<void> {
  await q.query(
    `DELETE FROM login_attempts WHERE bucket IN
       (SELECT bucket FROM login_attempts WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [now, max],
  );
}
