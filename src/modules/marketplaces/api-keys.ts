// API keys of a mode (contract 2): create (a secret key is shown once), list (masked; publishable
// keys in full, they are public), roll (a new key of the same type and name; the old one keeps
// working until the chosen expiry, at most 7 days) and revoke (stops at once). Key times are real
// time, not the test clock: advancing a test clock must not expire keys.
import type { Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import { isIdOf } from '../../ids.js';
import type { KeyType } from '../../http/api-keys.js';
import { pageRequest, toList, type ListEnvelope } from '../../http/pagination.js';
import type { Mode, Scope } from '../../scope.js';
import { resolveMarketplace, type Principal } from '../accounts/access.js';
import type { ManageDeps } from '../accounts/deps.js';
import { insertApiKey, maskKey, type ApiKeyRecord } from './operations.js';

export const MAX_ROLL_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

interface KeyRow {
  marketplace_id: string;
  mode: Mode;
  id: string;
  type: KeyType;
  name: string | null;
  publishable_key: string | null;
  last4: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const KEY_COLUMNS = 'marketplace_id, mode, id, type, name, publishable_key, last4, created_at, expires_at, revoked_at';

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    object: 'api_key',
    id: row.id,
    marketplace: row.marketplace_id,
    mode: row.mode,
    type: row.type,
    name: row.name,
    key: row.publishable_key,
    masked: maskKey(`${row.type === 'secret' ? 'sk' : 'pk'}_${row.mode}_`, row.last4),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}

export async function createKey(
  deps: ManageDeps,
  principal: Principal,
  scope: Scope,
  input: { type: KeyType; name?: string | null },
): Promise<ApiKeyRecord> {
  return deps.db.transaction(async (tx) => {
    await resolveMarketplace(tx, principal, scope.marketplaceId, 'configure');
    return insertApiKey(tx, scope, input.type, input.name ?? null, new Date(deps.clock.nowMs()));
  });
}

/** Every key of the mode, newest first, revoked and expired ones included (their times say so). */
export async function listKeys(
  deps: ManageDeps,
  principal: Principal,
  scope: Scope,
  query: { limit?: number; starting_after?: string },
): Promise<ListEnvelope<ApiKeyRecord>> {
  await resolveMarketplace(deps.db, principal, scope.marketplaceId, 'read');
  const page = pageRequest(query, 'apiKey');
  const rows = await deps.db.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE marketplace_id = $1 AND mode = $2 AND ($3::text IS NULL OR id < $3)
      ORDER BY id DESC LIMIT $4`,
    [scope.marketplaceId, scope.mode, page.startingAfter, page.limit + 1],
  );
  return toList(rows.map(toRecord), page.limit);
}

/** Finds a key by id for a change, locked; a key of a workspace the user is not in is missing. */
async function keyForChange(tx: Tx, principal: Principal, keyId: string): Promise<KeyRow> {
  const missing = errors.missing('API key', keyId, 'id');
  if (!isIdOf('apiKey', keyId)) throw missing;
  const [located] = await tx.query<{ marketplace_id: string; mode: Mode }>('SELECT marketplace_id, mode FROM api_keys WHERE id = $1', [keyId]);
  if (!located) throw missing;
  await resolveMarketplace(tx, principal, located.marketplace_id, 'configure').catch((error: unknown) => {
    throw (error as { code?: string }).code === 'resource_missing' ? missing : error;
  });
  const [row] = await tx.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    located.marketplace_id,
    located.mode,
    keyId,
  ]);
  return row!;
}

function checkUsable(row: KeyRow, nowMs: number, action: string): void {
  if (row.revoked_at !== null) throw errors.invalidState('API key', 'revoked', action);
  if (row.expires_at !== null && row.expires_at.getTime() <= nowMs) throw errors.invalidState('API key', 'expired', action);
}

/** Roll: a new key now; the old one expires in expires_in_seconds (0: at once). */
export async function rollKey(
  deps: ManageDeps,
  principal: Principal,
  keyId: string,
  input: { expires_in_seconds: number },
): Promise<ApiKeyRecord> {
  return deps.db.transaction(async (tx) => {
    const row = await keyForChange(tx, principal, keyId);
    const now = new Date(deps.clock.nowMs());
    checkUsable(row, now.getTime(), 'be rolled');
    if (row.expires_at !== null) throw errors.invalidState('API key', `already rolled (it expires at ${row.expires_at.toISOString()})`, 'be rolled again; roll its replacement');
    const scope = { marketplaceId: row.marketplace_id, mode: row.mode };
    await tx.query('UPDATE api_keys SET expires_at = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
      scope.marketplaceId,
      scope.mode,
      row.id,
      new Date(now.getTime() + input.expires_in_seconds * 1000),
    ]);
    tx.afterCommit(() => deps.apiKeys.invalidate());
    return insertApiKey(tx, scope, row.type, row.name, now);
  });
}

/** Revoke: the key stops working at once (this process at once, others within the cache TTL). */
export async function revokeKey(deps: ManageDeps, principal: Principal, keyId: string): Promise<ApiKeyRecord> {
  return deps.db.transaction(async (tx) => {
    const row = await keyForChange(tx, principal, keyId);
    if (row.revoked_at !== null) throw errors.invalidState('API key', 'revoked', 'be revoked again');
    const [revoked] = await tx.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${KEY_COLUMNS}`,
      [row.marketplace_id, row.mode, row.id, new Date(deps.clock.nowMs())],
    );
    tx.afterCommit(() => deps.apiKeys.invalidate());
    return toRecord(revoked!);
  });
}
