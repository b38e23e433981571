// Users and workspaces: signup, login, logout, the workspaces a user belongs to, and the operator's
// billing state. Members and invitations are in members.ts and invitations.ts.
import type { Clock } from '../../clock.js';
import type { Db, Queryable, Tx } from '../../db/db.js';
import { pageOfItems, type PageParams } from '../../db/paging.js';
import { mapUniqueViolations } from '../../db/pg-errors.js';
import { DomainError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ServiceContext, UserContext } from '../../contracts/context.js';
import { DEFAULT_PASSWORD_HASH_COST, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import * as queries from './queries.js';
import type {
  CreateWorkspaceBody,
  LoginBody,
  LogoutAnswer,
  MembershipList,
  Role,
  Session,
  SetBillingStateBody,
  SignupBody,
  SignupSession,
  User,
  Workspace,
} from './schemas.js';
import { serializeUser, serializeWorkspace } from './serialize.js';
import { admitSecretAttempt } from './secret-throttle.js';
import { admitLoginAttempt, loginSucceeded } from './throttle.js';
import { issueToken, revokeToken } from './tokens.js';
import { sendVerificationEmail } from './verification.js';

/** Emails are compared and kept lower case: one account per mailbox whatever its spelling. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const emailTaken = () => errors.exists('An account with this email already exists.', 'email');

/** A user and the workspace they own, in the caller's transaction. */
async function insertOwnedWorkspace(
  tx: Tx,
  input: { email: string; passwordHash: string; workspaceName: string; now: Date; verified: boolean },
): Promise<{ user: User; workspace: Workspace }> {
  if (await queries.selectUserByEmail(tx, input.email)) throw emailTaken();
  const userRow = {
    id: newId('user'),
    email: input.email,
    password_hash: input.passwordHash,
    email_verified_at: input.verified ? input.now : null,
    created_at: input.now,
  };
  const workspaceRow = { id: newId('workspace'), name: input.workspaceName, billing_state: 'active' as const, created_at: input.now };
  await queries.insertUser(tx, userRow);
  await queries.insertWorkspace(tx, workspaceRow);
  await queries.insertMember(tx, workspaceRow.id, userRow.id, 'owner', input.now, input.now);
  return { user: serializeUser(userRow), workspace: serializeWorkspace(workspaceRow) };
}

/**
 * Provisioning below the API (first start, tests, the benchmark): a user and the workspace they
 * own. A unique-index race (two signups at once) is the same answer as the check that lost it.
 * The address counts as proved: whoever runs the service chose it (docs/decisions/accounts.md).
 */
export async function createWorkspaceWithOwner(
  db: Db,
  clock: Clock,
  input: { email: string; password: string; workspaceName: string; passwordHashCost?: number },
): Promise<{ user: User; workspace: Workspace }> {
  const passwordHash = await hashPassword(input.password, input.passwordHashCost ?? DEFAULT_PASSWORD_HASH_COST);
  const now = new Date(clock.nowMs());
  const email = normalizeEmail(input.email);
  return mapUniqueViolations(
    () => db.transaction((tx) => insertOwnedWorkspace(tx, { email, passwordHash, workspaceName: input.workspaceName, now, verified: true })),
    { users_email_key: emailTaken },
  );
}

/**
 * POST /manage/v1/signup: a user, their workspace (they own it), a token, and a verification email.
 * Each attempt is counted by client address and by email before anything is checked or hashed
 * (secret-throttle.ts): a flood of sign-ups would otherwise run scrypt at will, and probe which
 * emails have an account.
 */
export async function signup(ctx: ServiceContext, body: SignupBody, clientAddress: string): Promise<SignupSession> {
  if (ctx.config.signup === 'closed') {
    throw new DomainError('signup_closed', 'Sign-up is closed on this service; ask a workspace owner to invite you.');
  }
  const email = normalizeEmail(body.email);
  await admitSecretAttempt(ctx.db, ctx.clock, 'signup', { address: clientAddress, target: email });
  // Like a marketplace name: trimmed, and never blank.
  const workspaceName = body.workspace_name.trim();
  if (workspaceName === '') throw errors.invalidRequest('The workspace name may not be blank.', 'workspace_name');
  const passwordHash = await hashPassword(body.password, ctx.config.passwordHashCost);
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const now = new Date(ctx.clock.nowMs());
        const created = await insertOwnedWorkspace(tx, { email, passwordHash, workspaceName, now, verified: false });
        await sendVerificationEmail(tx, ctx.config, { userId: created.user.id, email, workspaceId: created.workspace.id, now });
        const issued = await issueToken(tx, created.user.id, now);
        return { ...created, token: issued.token, token_expires_at: issued.expiresAt.toISOString() };
      }),
    { users_email_key: emailTaken },
  );
}

// Unknown emails are checked against this hash too, so both failures take the same time.
// cache: one dummy hash per cost, computed once per process (a pure function of the cost).
const dummyHashes = new Map<number, Promise<string>>();
function dummyPasswordHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = hashPassword('not a password of anybody', cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/**
 * POST /manage/v1/login. Unknown email, invited user without a password and wrong password give
 * one answer. Each attempt is counted (by email, by client address, and both) before the password
 * is checked; past a limit it answers 429 (throttle.ts).
 */
export async function login(ctx: ServiceContext, body: LoginBody, clientAddress: string): Promise<Session> {
  return logInWith(ctx, body, clientAddress, async (tx, user) => {
    const issued = await issueToken(tx, user.id, new Date(ctx.clock.nowMs()));
    return { user, token: issued.token, token_expires_at: issued.expiresAt.toISOString() };
  });
}

/**
 * The checks of every login (a management token, a dashboard session): the attempt counted and
 * throttled, the password checked, then `start` issues the credential in the transaction that
 * takes the attempt back.
 */
export async function logInWith<T>(
  ctx: ServiceContext,
  body: LoginBody,
  clientAddress: string,
  start: (tx: Tx, user: User) => Promise<T>,
): Promise<T> {
  const email = normalizeEmail(body.email);
  const attempt = await admitLoginAttempt(ctx.db, ctx.clock, email, clientAddress);
  const user = await queries.selectUserByEmail(ctx.db, email);
  const matches = await verifyPassword(body.password, user?.password_hash ?? (await dummyPasswordHash(ctx.config.passwordHashCost)));
  if (!user || user.password_hash === null || !matches) {
    throw new DomainError('invalid_credentials', 'The email or password is not correct.');
  }
  // A hash of older, cheaper parameters is replaced now, the one moment the password is known;
  // hashed before the transaction, which never waits on scrypt.
  const verifiedHash = user.password_hash;
  const cost = ctx.config.passwordHashCost;
  const rehashed = needsRehash(verifiedHash, cost) ? await hashPassword(body.password, cost) : null;
  return ctx.db.transaction(async (tx) => {
    await loginSucceeded(tx, ctx.clock, attempt);
    if (rehashed !== null) await queries.updateUserPasswordHashIfUnchanged(tx, user.id, verifiedHash, rehashed);
    return start(tx, serializeUser(user));
  });
}

/** POST /manage/v1/workspaces: a new workspace; its creator is its owner. Closed sign-up refuses it. */
export async function createWorkspace(ctx: UserContext, body: CreateWorkspaceBody): Promise<Workspace> {
  if (ctx.config.signup === 'closed') {
    throw new DomainError('signup_closed', 'Sign-up is closed on this service: new workspaces are not created here.');
  }
  const name = body.name.trim();
  if (name === '') throw errors.invalidRequest('The workspace name may not be blank.', 'name');
  return ctx.db.transaction(async (tx) => {
    // One account cannot multiply workspaces (and each workspace's marketplaces) without end.
    await queries.lockUserForBound(tx, ctx.principal.userId);
    const limit = ctx.config.limits.workspacesPerUser;
    if ((await queries.countOwnedWorkspaces(tx, ctx.principal.userId)) >= limit) {
      throw errors.limitExceeded('Workspaces an account owns', limit, 'MAX_WORKSPACES_PER_USER', 'add another owner to one of them and leave it, or use one you have');
    }
    const now = new Date(ctx.clock.nowMs());
    const row = { id: newId('workspace'), name, billing_state: 'active' as const, created_at: now };
    await queries.insertWorkspace(tx, row);
    await queries.insertMember(tx, row.id, ctx.principal.userId, 'owner', now, now);
    return serializeWorkspace(row);
  });
}

/** The user with this email who can log in (has a password), or null. */
export async function findActiveUser(q: Queryable, email: string): Promise<User | null> {
  const row = await queries.selectUserByEmail(q, normalizeEmail(email));
  return row && row.password_hash !== null ? serializeUser(row) : null;
}

/** The user of an id, or null (a credential's user: the dashboard's session). */
export async function findUser(q: Queryable, userId: string): Promise<User | null> {
  const row = await queries.selectUserById(q, userId);
  return row ? serializeUser(row) : null;
}

/** A user known to exist (the signed-in one). */
export async function retrieveUser(q: Queryable, userId: string): Promise<User> {
  const row = await queries.selectUserById(q, userId);
  if (!row) throw errors.missing('user', userId);
  return serializeUser(row);
}

/** The user's workspaces with their role there, newest first. */
export async function membershipsOfUser(q: Queryable, userId: string): Promise<Array<{ id: string; name: string; role: Role }>> {
  const rows = await queries.selectWorkspacesOfUser(q, userId);
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role }));
}

/**
 * A new password (a reset), hashed by the caller before its transaction (scrypt takes a while):
 * every management token of the user stops working with the old one, and the address counts as proved.
 */
export async function replacePassword(tx: Tx, userId: string, passwordHash: string, now: Date): Promise<User> {
  await queries.updateUserPassword(tx, userId, passwordHash);
  await queries.deleteAllManagementTokens(tx, userId);
  // Only the mailbox received the link that got here: the address is proved, like by its own link.
  return serializeUser(await queries.updateUserVerified(tx, userId, now));
}

/** POST /manage/v1/logout: the token the request was sent with stops working. */
export async function logout(ctx: UserContext, token: string): Promise<LogoutAnswer> {
  await ctx.db.transaction((tx) => revokeToken(tx, ctx.principal, token, new Date(ctx.clock.nowMs())));
  return { object: 'logout', revoked: true };
}

/** GET /manage/v1/workspaces: every workspace of the user, with their role there. */
export async function listWorkspaces(ctx: UserContext, query: PageParams): Promise<MembershipList> {
  const rows = await queries.selectWorkspacesOfUser(ctx.db, ctx.principal.userId);
  // A user belongs to few workspaces: paged in memory, like every list.
  const memberships = rows.map((row) => ({ object: 'workspace_membership' as const, workspace: serializeWorkspace(row), role: row.role }));
  return pageOfItems(memberships, query, (item) => item.workspace.id);
}

/** The operator's switch: payment_missed makes live mode read-only, suspended both. */
export async function setBillingState(ctx: ServiceContext, workspaceId: string, body: SetBillingStateBody): Promise<Workspace> {
  return ctx.db.transaction(async (tx) => {
    const row = await queries.updateWorkspaceBillingState(tx, workspaceId, body.state, new Date(ctx.clock.nowMs()));
    if (!row) throw errors.missing('workspace', workspaceId, 'id');
    tx.afterCommit(() => ctx.apiKeys.invalidate());
    return serializeWorkspace(row);
  });
}
