// Marketplaces, their two modes and their API keys: what signup, first start and tests need.
import type { Clock } from '../../clock.js';
import type { Db, Queryable } from '../../db/db.js';
import { newId } from '../../ids.js';
import { generateApiKey, hashApiKey, type KeyType } from '../../http/api-keys.js';
import type { Mode, Scope } from '../../scope.js';
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
  /** The whole key: only in the answer that created it (always for publishable keys). */
  key?: string;
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
    masked: `${key.slice(0, key.indexOf('_', 3) + 1)}…${last4}`,
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
