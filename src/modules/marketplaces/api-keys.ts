// API keys of a mode: create (a secret key is shown once), list (masked; publishable
// keys in full, they are public), roll (a new key of the same type and name; the old one keeps
// working until the chosen expiry, at most 7 days) and revoke (stops at once). Key times are real
// time, not the test clock: advancing a test clock must not expire keys.
import type { Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { isIdOf } from '../../ids.js';
import { resolveMarketplace } from '../accounts/index.js';
import { type Principal } from '../../contracts/context.js';
import type { UserContext } from '../../contracts/context.js';
import { issueApiKey } from './operations.js';
import { lockModeForBound } from './mode-lock.js';
import * as queries from './queries.js';
import { scopeOf, type ApiKey, type CreateApiKeyBody, type ListApiKeysQuery, type ModeParams, type RollApiKeyBody } from './schemas.js';
import { serializeApiKey } from './serialize.js';

export async function createApiKey(ctx: UserContext, mode: ModeParams, body: CreateApiKeyBody): Promise<ApiKey> {
  const scope = scopeOf(mode);
  return ctx.db.transaction(async (tx) => {
    await resolveMarketplace(tx, ctx.principal, scope.marketplaceId, 'configure');
    const now = new Date(ctx.clock.nowMs());
    // Locked, then counted in a statement of its own: two creates at the last free slot take turns.
    await lockModeForBound(tx, scope);
    const limit = ctx.config.limits.apiKeys;
    if ((await queries.countWorkingApiKeys(tx, scope, now)) >= limit) {
      throw errors.limitExceeded('API keys per mode (revoked and expired ones not counted)', limit, 'MAX_API_KEYS', 'revoke one before creating another');
    }
    return issueApiKey(tx, scope, body.type, body.name ?? null, now);
  });
}

/**
 * Every key of the mode (or of one type), newest first, revoked and expired ones included (their
 * times say so); publishable keys whole, secret keys masked (serializeApiKey).
 */
export async function listApiKeys(ctx: UserContext, mode: ModeParams, query: ListApiKeysQuery): Promise<ListEnvelope<ApiKey>> {
  const scope = scopeOf(mode);
  await resolveMarketplace(ctx.db, ctx.principal, scope.marketplaceId, 'read');
  const page = pageRequest(query, 'apiKey');
  const rows = await queries.selectApiKeys(ctx.db, scope, page, { type: query.type });
  return toList(rows.map(serializeApiKey), page.limit);
}

/** Finds a key by id for a change, locked; a key of a workspace the user is not in is missing. */
async function keyForChange(tx: Tx, principal: Principal, keyId: string): Promise<queries.ApiKeyRow> {
  const missing = errors.missing('API key', keyId, 'id');
  if (!isIdOf('apiKey', keyId)) throw missing;
  const scope = await queries.selectApiKeyScope(tx, keyId);
  if (!scope) throw missing;
  await resolveMarketplace(tx, principal, scope.marketplaceId, 'configure').catch((error: unknown) => {
    throw (error as { code?: string }).code === 'resource_missing' ? missing : error;
  });
  return (await queries.lockApiKey(tx, scope, keyId))!;
}

function checkUsable(row: queries.ApiKeyRow, nowMs: number, action: string): void {
  if (row.revoked_at !== null) throw errors.invalidState('API key', 'revoked', action);
  if (row.expires_at !== null && row.expires_at.getTime() <= nowMs) throw errors.invalidState('API key', 'expired', action);
}

/** Roll: a new key now; the old one expires in expires_in_seconds (0: at once). */
export async function rollApiKey(ctx: UserContext, keyId: string, body: RollApiKeyBody): Promise<ApiKey> {
  return ctx.db.transaction(async (tx) => {
    const row = await keyForChange(tx, ctx.principal, keyId);
    const now = new Date(ctx.clock.nowMs());
    checkUsable(row, now.getTime(), 'be rolled');
    if (row.expires_at !== null) throw errors.invalidState('API key', `already rolled (it expires at ${row.expires_at.toISOString()})`, 'be rolled again; roll its replacement');
    const scope = { marketplaceId: row.marketplace_id, mode: row.mode };
    await queries.updateApiKeyExpiry(tx, scope, row.id, new Date(now.getTime() + body.expires_in_seconds * 1000));
    tx.afterCommit(() => ctx.apiKeys.invalidate());
    return issueApiKey(tx, scope, row.type, row.name, now);
  });
}

/** Revoke: the key stops working at once (this process at once, others within the cache TTL). */
export async function revokeApiKey(ctx: UserContext, keyId: string): Promise<ApiKey> {
  return ctx.db.transaction(async (tx) => {
    const row = await keyForChange(tx, ctx.principal, keyId);
    if (row.revoked_at !== null) throw errors.invalidState('API key', 'revoked', 'be revoked again');
    const revoked = await queries.updateApiKeyRevoked(tx, { marketplaceId: row.marketplace_id, mode: row.mode }, row.id, new Date(ctx.clock.nowMs()));
    tx.afterCommit(() => ctx.apiKeys.invalidate());
    return serializeApiKey(revoked);
  });
}
