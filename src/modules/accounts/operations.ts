// Workspaces and their owners: the part of the management domain that first start and tests need.
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/db.js';
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import { hashPassword } from './passwords.js';

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
  billing_state: 'active' | 'payment_missed' | 'suspended';
  created_at: string;
}

export async function createWorkspaceWithOwner(
  db: Db,
  clock: Clock,
  input: { email: string; password: string; workspaceName: string },
): Promise<{ user: UserRecord; workspace: WorkspaceRecord }> {
  const passwordHash = await hashPassword(input.password);
  const now = new Date(clock.nowMs());
  return db.transaction(async (tx) => {
    const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [input.email]);
    if (taken.length > 0) throw errors.exists('An account with this email already exists.', 'email');
    const user: UserRecord = { object: 'user', id: newId('user'), email: input.email, created_at: now.toISOString() };
    const workspace: WorkspaceRecord = {
      object: 'workspace',
      id: newId('workspace'),
      name: input.workspaceName,
      billing_state: 'active',
      created_at: now.toISOString(),
    };
    await tx.query('INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)', [
      user.id,
      user.email,
      passwordHash,
      now,
    ]);
    await tx.query(
      'INSERT INTO workspaces (id, name, billing_state, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
      [workspace.id, workspace.name, workspace.billing_state, now],
    );
    await tx.query(
      `INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES ($1, $2, 'owner', $3)`,
      [workspace.id, user.id, now],
    );
    return { user, workspace };
  });
}
