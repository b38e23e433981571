// Marketplaces and their two modes: creating one (with its default keys), listing and reading
// them for members of their workspace. Settings, processor and keys are in their own files.
import type { Clock } from '../../clock.js';
import type { Db, Queryable } from '../../db/db.js';
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import { generateApiKey, hashApiKey, type KeyType } from '../../http/api-keys.js';
import { pageRequest, toList, type ListEnvelope } from '../../http/pagination.js';
import type { Mode, Scope } from '../../scope.js';
import { resolveMarketplace, resolveWorkspace, type Principal } from '../accounts/access.js';
import type { ManageDeps } from '../accounts/deps.js';
import { defaultSettings } from '../marketplace/settings.js';

export interface ManagedMarketplace {
  object: 'marketplace';
  id: string;
  workspace: string;
  name: string;
  currency: string;
  created_at: string;
}

export interface ApiKeyRecord {
  object: 'api_key';
  id: string;
  marketplace: string;
  mode: Mode;
  type: KeyType;
  name: string | null;
  /** The whole key: only in the answer that created it (always for publishable keys); else null. */
  key: string | null;
  /** sk_test_…abcd: enough to recognise a key without revealing it. */
  masked: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface KeyPair {
  secret_key: string;
  publishable_key: string;
}

export async function insertApiKey(
  q: Queryable,
  scope: Scope,
  type: KeyType,
  name: string | null,
  now: Date,
  expiresAt: Date | null = null,
): Promise<ApiKeyRecord> {
  const key = generateApiKey(type, scope.mode);
  const id = newId('apiKey');
  const last4 = key.slice(-4);
  await q.query(
    `INSERT INTO api_keys (marketplace_id, mode, id, type, name, key_hash, publishable_key, last4, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [scope.marketplaceId, scope.mode, id, type, name, hashApiKey(key), type === 'publishable' ? key : null, last4, now, expiresAt],
  );
  return {
    object: 'api_key',
    id,
    marketplace: scope.marketplaceId,
    mode: scope.mode,
    type,
    name,
    key,
    masked: maskKey(key.slice(0, key.indexOf('_', 3) + 1), last4),
    created_at: now.toISOString(),
    expires_at: expiresAt ? expiresAt.toISOString() : null,
    revoked_at: null,
  };
}

export async function createMarketplace(
  db: Db,
  clock: Clock,
  input: { workspaceId: string; name: string; currency: string; testProcessor?: 'simulated' | null },
): Promise<{ marketplace: ManagedMarketplace; api_keys: { test: KeyPair; live: KeyPair } }> {
  const now = new Date(clock.nowMs());
  return db.transaction(async (tx) => {
    const marketplace: ManagedMarketplace = {
      object: 'marketplace',
      id: newId('marketplace'),
      workspace: input.workspaceId,
      name: input.name,
      currency: input.currency.toUpperCase(),
      created_at: now.toISOString(),
    };
    await tx.query('INSERT INTO marketplaces (id, workspace_id, name, currency, created_at) VALUES ($1, $2, $3, $4, $5)', [
      marketplace.id,
      input.workspaceId,
      marketplace.name,
      marketplace.currency,
      now,
    ]);
    const keys = {} as { test: KeyPair; live: KeyPair };
    for (const mode of ['test', 'live'] as const) {
      await tx.query('INSERT INTO marketplace_modes (marketplace_id, mode, settings, updated_at) VALUES ($1, $2, $3, $4)', [
        marketplace.id,
        mode,
        JSON.stringify(defaultSettings(mode)),
        now,
      ]);
      const scope = { marketplaceId: marketplace.id, mode };
      const secret = await insertApiKey(tx, scope, 'secret', 'Default secret key', now);
      const publishable = await insertApiKey(tx, scope, 'publishable', 'Default publishable key', now);
      keys[mode] = { secret_key: secret.key!, publishable_key: publishable.key! };
    }
    if (input.testProcessor === 'simulated') {
      await tx.query(
        `INSERT INTO processor_connections (marketplace_id, mode, provider, created_at, updated_at)
         VALUES ($1, 'test', 'simulated', $2, $2)`,
        [marketplace.id, now],
      );
    }
    return { marketplace, api_keys: keys };
  });
}

export function maskKey(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}

const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));

interface MarketplaceRow {
  id: string;
  workspace_id: string;
  name: string;
  currency: string;
  created_at: Date;
}

function toMarketplace(row: MarketplaceRow): ManagedMarketplace {
  return {
    object: 'marketplace',
    id: row.id,
    workspace: row.workspace_id,
    name: row.name,
    currency: row.currency,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * POST /manage/v1/marketplaces: like the demo, the test mode starts connected to the simulated
 * processor, so test orders can be paid at once; live mode needs a Stripe connection.
 */
export async function createMarketplaceFor(
  deps: ManageDeps,
  principal: Principal,
  input: { workspace?: string; name: string; currency: string },
): Promise<Awaited<ReturnType<typeof createMarketplace>>> {
  const currency = input.currency.toUpperCase();
  if (!ISO_4217.has(currency)) throw errors.invalidRequest(`'${input.currency}' is not an ISO 4217 currency code.`, 'currency');
  const name = input.name.trim();
  if (name === '') throw errors.invalidRequest('The name may not be blank.', 'name');
  return deps.db.transaction(async (tx) => {
    const access = await resolveWorkspace(tx, principal, input.workspace, 'create_marketplace');
    return createMarketplace(deps.db, deps.clock, { workspaceId: access.workspaceId, name, currency, testProcessor: 'simulated' });
  });
}

export async function listMarketplaces(
  deps: ManageDeps,
  principal: Principal,
  input: { workspace?: string; limit?: number; starting_after?: string },
): Promise<ListEnvelope<ManagedMarketplace>> {
  const access = await resolveWorkspace(deps.db, principal, input.workspace, 'read');
  const page = pageRequest(input, 'marketplace');
  const rows = await deps.db.query<MarketplaceRow>(
    `SELECT id, workspace_id, name, currency, created_at FROM marketplaces
      WHERE workspace_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [access.workspaceId, page.startingAfter, page.limit + 1],
  );
  return toList(rows.map(toMarketplace), page.limit);
}

export async function getMarketplace(deps: ManageDeps, principal: Principal, marketplaceId: string): Promise<ManagedMarketplace> {
  await resolveMarketplace(deps.db, principal, marketplaceId, 'read');
  const rows = await deps.db.query<MarketplaceRow>('SELECT id, workspace_id, name, currency, created_at FROM marketplaces WHERE id = $1', [
    marketplaceId,
  ]);
  return toMarketplace(rows[0]!);
}
