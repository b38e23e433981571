// Users and workspaces: signup, login, the workspaces a user belongs to, and the operator's
// billing state. Members and invitations are in members.ts and invitations.ts.
import type { Clock } from '../../clock.js';
import type { Db, Queryable } from '../../db/db.js';
import { DomainError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { BillingState } from '../../http/api-keys.js';
import type { Role } from './access.js';
import type { ManageDeps } from './deps.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { admitLoginAttempt, loginSucceeded } from './throttle.js';
import { issueToken } from './tokens.js';

export interface UserRecord {
  object: 'user';
  id: string;
  email: string;
  created_at: string;
}

export interface WorkspaceRecord {
  object: 'workspace';
  id: string;
  name: string;
  billing_state: BillingState;
  created_at: string;
}

export interface Session {
  user: UserRecord;
  token: string;
  token_expires_at: string;
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  created_at: Date;
}

interface WorkspaceRow {
  id: string;
  name: string;
  billing_state: BillingState;
  created_at: Date;
}

/** Emails are compared and kept lower case: one account per mailbox whatever its spelling. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function toUser(row: UserRow): UserRecord {
  return { object: 'user', id: row.id, email: row.email, created_at: row.created_at.toISOString() };
}

export function toWorkspace(row: WorkspaceRow): WorkspaceRecord {
  return { object: 'workspace', id: row.id, name: row.name, billing_state: row.billing_state, created_at: row.created_at.toISOString() };
}

/** A unique-index race (two signups at once) is the same answer as the check that lost it. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | null> {
  const rows = await q.query<UserRow>('SELECT id, email, password_hash, created_at FROM users WHERE lower(email) = $1', [
    normalizeEmail(email),
  ]);
  return rows[0] ?? null;
}

export async function createWorkspaceWithOwner(
  db: Db,
  clock: Clock,
  input: { email: string; password: string; workspaceName: string },
): Promise<{ user: UserRecord; workspace: WorkspaceRecord }> {
  const passwordHash = await hashPassword(input.password);
  const now = new Date(clock.nowMs());
  const email = normalizeEmail(input.email);
  try {
    return await db.transaction(async (tx) => {
      if (await findUserByEmail(tx, email)) throw errors.exists('An account with this email already exists.', 'email');
      const user = toUser({ id: newId('user'), email, password_hash: passwordHash, created_at: now });
      const workspace = toWorkspace({ id: newId('workspace'), name: input.workspaceName, billing_state: 'active', created_at: now });
      await tx.query('INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)', [user.id, email, passwordHash, now]);
      await tx.query('INSERT INTO workspaces (id, name, billing_state, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)', [
        workspace.id,
        workspace.name,
        workspace.billing_state,
        now,
      ]);
      await tx.query(`INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES ($1, $2, 'owner', $3)`, [
        workspace.id,
        user.id,
        now,
      ]);
      return { user, workspace };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.exists('An account with this email already exists.', 'email');
    throw error;
  }
}

/** POST /manage/v1/signup: a user, their workspace (they own it) and a token. */
export async function signup(
  deps: ManageDeps,
  input: { email: string; password: string; workspace_name: string },
): Promise<{ user: UserRecord; workspace: WorkspaceRecord } & Omit<Session, 'user'>> {
  if (deps.config.signup === 'closed') {
    throw new DomainError('signup_closed', 'Sign-up is closed on this service; ask a workspace owner to invite you.');
  }
  // Like a marketplace name: trimmed, and never blank.
  const workspaceName = input.workspace_name.trim();
  if (workspaceName === '') throw errors.invalidRequest('The workspace name may not be blank.', 'workspace_name');
  const created = await createWorkspaceWithOwner(deps.db, deps.clock, {
    email: input.email,
    password: input.password,
    workspaceName,
  });
  const issued = await issueToken(deps.db, created.user.id, new Date(deps.clock.nowMs()));
  return { ...created, token: issued.token, token_expires_at: issued.expiresAt.toISOString() };
}

// Unknown emails are checked against this hash too, so both failures take the same time.
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not a password of anybody');
  return dummyHash;
}

/**
 * POST /manage/v1/login. Unknown email, invited user without a password and wrong password give
 * one answer. Each attempt is counted (by email, by client address, and both) before the password
 * is checked; past a limit it answers 429 (throttle.ts).
 */
export async function login(deps: ManageDeps, input: { email: string; password: string }, clientAddress: string): Promise<Session> {
  const email = normalizeEmail(input.email);
  const attempt = await admitLoginAttempt(deps.db, deps.clock, email, clientAddress);
  const user = await findUserByEmail(deps.db, email);
  const matches = await verifyPassword(input.password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || user.password_hash === null || !matches) {
    throw new DomainError('invalid_credentials', 'The email or password is not correct.');
  }
  return deps.db.transaction(async (tx) => {
    await loginSucceeded(tx, deps.clock, attempt);
    const issued = await issueToken(tx, user.id, new Date(deps.clock.nowMs()));
    return { user: toUser(user), token: issued.token, token_expires_at: issued.expiresAt.toISOString() };
  });
}

export interface Membership {
  object: 'workspace_membership';
  workspace: WorkspaceRecord;
  role: Role;
}

/** GET /manage/v1/workspaces: every workspace of the user, with their role there. */
export async function listWorkspaces(db: Db, userId: string): Promise<Membership[]> {
  const rows = await db.query<WorkspaceRow & { role: Role }>(
    `SELECT w.id, w.name, w.billing_state, w.created_at, wm.role
       FROM workspace_members wm JOIN workspaces w ON w.id = wm.workspace_id
      WHERE wm.user_id = $1 ORDER BY w.id DESC`,
    [userId],
  );
  return rows.map((row) => ({ object: 'workspace_membership', workspace: toWorkspace(row), role: row.role }));
}

/** The operator's switch (contract 2): payment_missed makes live mode read-only, suspended both. */
export async function setBillingState(deps: ManageDeps, workspaceId: string, state: BillingState): Promise<WorkspaceRecord> {
  return deps.db.transaction(async (tx) => {
    const rows = await tx.query<WorkspaceRow>(
      `UPDATE workspaces SET billing_state = $2, updated_at = $3 WHERE id = $1 RETURNING id, name, billing_state, created_at`,
      [workspaceId, state, new Date(deps.clock.nowMs())],
    );
    const row = rows[0];
    if (!row) throw errors.missing('workspace', workspaceId, 'id');
    tx.afterCommit(() => deps.apiKeys.invalidate());
    return toWorkspace(row);
  });
}
