// Who may do what in a workspace. Every management operation names the permission
// it needs and resolves the workspace through here, so a marketplace or key of a workspace the
// user is not a member of is answered as missing (404), never as forbidden: ids of other tenants
// are not confirmed to exist.
import type { Queryable, Tx } from '../../db/db.js';
import { DomainError, errors } from '../../errors.js';
import { lockWorkspaceRow, selectMemberAddresses, selectMembershipOfMarketplace, selectMemberships } from './queries.js';
import type { BillingState, Role } from './schemas.js';

export type Permission =
  /** Read marketplaces, settings, processor connections (masked), keys (masked), members, emails. */
  | 'read'
  /** Change settings and processor connections; create, roll and revoke API keys. */
  | 'configure'
  /** Create marketplaces. */
  | 'create_marketplace'
  /** Invite and remove admins, developers and viewers. */
  | 'manage_members'
  /** Add or remove owners. */
  | 'manage_owners';

const PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: ['read', 'configure', 'create_marketplace', 'manage_members', 'manage_owners'],
  admin: ['read', 'configure', 'create_marketplace', 'manage_members'],
  developer: ['read', 'configure'],
  viewer: ['read'],
};

/** The authenticated user of a management request (a token today, a dashboard session later). */
export interface Principal {
  userId: string;
  email: string;
}

export interface WorkspaceAccess {
  workspaceId: string;
  role: Role;
}

export function can(role: Role, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}

export function requirePermission(access: WorkspaceAccess, permission: Permission): void {
  if (!can(access.role, permission)) {
    throw new DomainError('permission_denied', `Your role (${access.role}) does not allow this: it needs the ${permission} permission.`);
  }
}

/**
 * The workspace a request acts on: the one named, or the user's only workspace. A user of several
 * workspaces must name one (400 param workspace); one they are not a member of is missing.
 */
export async function resolveWorkspace(
  q: Queryable,
  principal: Principal,
  named: string | undefined,
  permission: Permission,
): Promise<WorkspaceAccess> {
  const rows = await selectMemberships(q, principal.userId, named ?? null);
  if (named !== undefined && rows.length === 0) throw errors.missing('workspace', named, 'workspace');
  if (rows.length === 0) throw errors.missing('workspace', '(none: you are not a member of any workspace)', 'workspace');
  if (rows.length > 1) {
    throw errors.invalidRequest('You are a member of several workspaces: name one with the workspace query parameter.', 'workspace');
  }
  const access = { workspaceId: rows[0]!.workspace_id, role: rows[0]!.role };
  requirePermission(access, permission);
  return access;
}

/** Access to a marketplace through its workspace; 404 unless the user is a member there. */
export async function resolveMarketplace(
  q: Queryable,
  principal: Principal,
  marketplaceId: string,
  permission: Permission,
): Promise<WorkspaceAccess> {
  const row = await selectMembershipOfMarketplace(q, principal.userId, marketplaceId);
  if (!row) throw errors.missing('marketplace', marketplaceId, 'id');
  const access = { workspaceId: row.workspace_id, role: row.role };
  requirePermission(access, permission);
  return access;
}

/**
 * The user's access to a marketplace with its workspace's billing state, or null unless the user
 * is an active member of the workspace that owns it (the dashboard's /v1 access asks this).
 */
export async function memberOfMarketplace(
  q: Queryable,
  userId: string,
  marketplaceId: string,
): Promise<(WorkspaceAccess & { billingState: BillingState }) | null> {
  const row = await selectMembershipOfMarketplace(q, userId, marketplaceId);
  return row ? { workspaceId: row.workspace_id, role: row.role, billingState: row.billing_state } : null;
}

/** The addresses of the workspace's active members (who is told of what happens to the workspace). */
export function memberAddresses(q: Queryable, workspaceId: string): Promise<string[]> {
  return selectMemberAddresses(q, workspaceId);
}

/**
 * In the creating transaction, before counting a workspace's marketplaces (MAX_MARKETPLACES_PER_WORKSPACE):
 * the workspace's row is locked, so two creates in one workspace take turns.
 */
export function lockWorkspaceForBound(tx: Tx, workspaceId: string): Promise<void> {
  return lockWorkspaceRow(tx, workspaceId);
}
