// Marketplaces and their two modes: creating one (with its default keys), listing and reading
// them for members of their workspace. Settings, processor and keys are in their own files.
import type { Clock } from '../../clock.js';
import type { Db, Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { generateApiKey } from '../../http/api-key-cache.js';
import { newId } from '../../ids.js';
import { MODES, type Scope } from '../../scope.js';
import { sha256Hex } from '../../secrets.js';
import { lockWorkspaceForBound, resolveMarketplace, resolveWorkspace } from '../accounts/index.js';
import type { WorkspacePageQuery, WorkspaceQuery } from '../accounts/index.js';
import type { UserContext } from '../../contracts/context.js';
import { defaultSettings } from '../../contracts/settings.js';
import * as queries from './queries.js';
import type { ApiKey, ApiKeyType, CreatedMarketplace, CreateMarketplaceBody, KeyPair, ManagedMarketplace } from './schemas.js';
import { maskKey, serializeMarketplace } from './serialize.js';

export type { KeyPair } from './schemas.js';

/** A new key of the mode, in the caller's transaction: the only answer that holds a secret key whole. */
export async function issueApiKey(
  tx: Tx,
  scope: Scope,
  type: ApiKeyType,
  name: string | null,
  now: Date,
  expiresAt: Date | null = null,
): Promise<ApiKey> {
  const key = generateApiKey(type, scope.mode);
  const id = newId('apiKey');
  const last4 = key.slice(-4);
  await queries.insertApiKey(tx, scope, {
    id,
    type,
    name,
    key_hash: sha256Hex(key),
    publishable_key: type === 'publishable' ? key : null,
    last4,
    created_at: now,
    expires_at: expiresAt,
  });
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

/**
 * Provisioning below the API (first start, tests, the benchmark, and POST /manage/v1/marketplaces
 * once it has checked the caller): a marketplace, its two modes with default settings and keys,
 * and optionally the simulated processor in test mode.
 */
export async function createMarketplace(
  db: Db,
  clock: Clock,
  input: {
    workspaceId: string;
    name: string;
    currency: string;
    testProcessor?: 'simulated' | null;
    /** Test mode starts with payments on (the demo: ready to sell through the simulated processor). */
    testPaymentsEnabled?: boolean;
  },
): Promise<CreatedMarketplace> {
  const now = new Date(clock.nowMs());
  return db.transaction(async (tx) => {
    const row = { id: newId('marketplace'), workspace_id: input.workspaceId, name: input.name, currency: input.currency.toUpperCase(), created_at: now };
    await queries.insertMarketplace(tx, row);
    const keys = {} as { test: KeyPair; live: KeyPair };
    for (const mode of MODES) {
      const scope = { marketplaceId: row.id, mode };
      const settings = defaultSettings(mode);
      if (mode === 'test' && input.testPaymentsEnabled) settings.payments_enabled = true;
      await queries.insertMode(tx, scope, settings, now);
      const secret = await issueApiKey(tx, scope, 'secret', 'Default secret key', now);
      const publishable = await issueApiKey(tx, scope, 'publishable', 'Default publishable key', now);
      keys[mode] = { secret_key: secret.key!, publishable_key: publishable.key! };
    }
    if (input.testProcessor === 'simulated') {
      await queries.upsertConnection(tx, { marketplaceId: row.id, mode: 'test' }, { provider: 'simulated', secret_key_enc: null, webhook_secret_enc: null, connect_webhook_secret_enc: null, now });
    }
    return { marketplace: serializeMarketplace(row), api_keys: keys };
  });
}

const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));

/**
 * POST /manage/v1/marketplaces: like the demo, the test mode starts connected to the simulated
 * processor, so test orders can be paid at once; live mode needs a Stripe connection.
 */
export async function createMarketplaceFor(ctx: UserContext, query: WorkspaceQuery, body: CreateMarketplaceBody): Promise<CreatedMarketplace> {
  const currency = body.currency.toUpperCase();
  if (!ISO_4217.has(currency)) throw errors.invalidRequest(`'${body.currency}' is not an ISO 4217 currency code.`, 'currency');
  const name = body.name.trim();
  if (name === '') throw errors.invalidRequest('The name may not be blank.', 'name');
  return ctx.db.transaction(async (tx) => {
    const access = await resolveWorkspace(tx, ctx.principal, query.workspace, 'create_marketplace');
    // Each marketplace brings its own per-mode bounds: the number of them is bounded too.
    await lockWorkspaceForBound(tx, access.workspaceId);
    const limit = ctx.config.limits.marketplacesPerWorkspace;
    if ((await queries.countMarketplaces(tx, access.workspaceId)) >= limit) {
      throw errors.limitExceeded('Marketplaces per workspace', limit, 'MAX_MARKETPLACES_PER_WORKSPACE', 'use one of the workspace\'s marketplaces, or another workspace');
    }
    return createMarketplace(ctx.db, ctx.clock, { workspaceId: access.workspaceId, name, currency, testProcessor: 'simulated' });
  });
}

export async function listMarketplaces(ctx: UserContext, query: WorkspacePageQuery): Promise<ListEnvelope<ManagedMarketplace>> {
  const access = await resolveWorkspace(ctx.db, ctx.principal, query.workspace, 'read');
  const page = pageRequest(query, 'marketplace');
  const rows = await queries.selectMarketplaces(ctx.db, access.workspaceId, page);
  return toList(rows.map(serializeMarketplace), page.limit);
}

export async function retrieveManagedMarketplace(ctx: UserContext, marketplaceId: string): Promise<ManagedMarketplace> {
  const access = await resolveMarketplace(ctx.db, ctx.principal, marketplaceId, 'read');
  const row = await queries.selectMarketplace(ctx.db, access.workspaceId, marketplaceId);
  if (!row) throw errors.missing('marketplace', marketplaceId, 'id');
  return serializeMarketplace(row);
}
