// The processor connection of one mode (contract 2, 10): `simulated` (test mode only) or `stripe`
// with the platform's secret key and the webhook signing secret. Both secrets are encrypted at rest
// (src/secrets.ts) with the row's place bound in, and only ever answered masked. The keys' shapes
// are checked here; whether Stripe accepts them shows on first use (no network call on save).
import type { Queryable } from '../../db/db.js';
import { DomainError, errors } from '../../errors.js';
import type { Mode, Scope } from '../../scope.js';
import { decryptSecret, encryptSecret, maskSecret } from '../../secrets.js';
import { resolveMarketplace, type Principal } from '../accounts/access.js';
import type { ManageDeps } from '../accounts/deps.js';

export type Provider = 'simulated' | 'stripe';

export interface ProcessorConnection {
  object: 'processor_connection';
  marketplace: string;
  mode: Mode;
  provider: Provider;
  /** Masked: sk_live_…abcd. */
  secret_key: string | null;
  /** Masked: whsec_…abcd. */
  webhook_secret: string | null;
  created_at: string;
  updated_at: string;
}

export type ProcessorCredentials =
  | { provider: 'simulated' }
  | { provider: 'stripe'; secretKey: string; webhookSecret: string };

export interface ConnectionInput {
  provider: Provider;
  secret_key?: string;
  webhook_secret?: string;
}

interface ConnectionRow {
  provider: Provider;
  secret_key_enc: string | null;
  webhook_secret_enc: string | null;
  created_at: Date;
  updated_at: Date;
}

const STRIPE_KEY = { test: /^(sk|rk)_test_[A-Za-z0-9]{16,240}$/, live: /^(sk|rk)_live_[A-Za-z0-9]{16,240}$/ };
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{16,240}$/;

function context(scope: Scope, column: 'secret_key' | 'webhook_secret'): string {
  return `processor_connections:${scope.marketplaceId}:${scope.mode}:${column}`;
}

function checkInput(scope: Scope, input: ConnectionInput): void {
  if (input.provider === 'simulated') {
    if (scope.mode === 'live') {
      throw new DomainError('test_mode_only', 'The simulated processor is for test mode only; connect Stripe in live mode.', 'provider');
    }
    for (const field of ['secret_key', 'webhook_secret'] as const) {
      if (input[field] !== undefined) throw errors.invalidRequest(`${field} is only accepted with provider stripe.`, field);
    }
    return;
  }
  if (input.secret_key === undefined) throw errors.invalidRequest('Missing required field: secret_key.', 'secret_key');
  if (input.webhook_secret === undefined) throw errors.invalidRequest('Missing required field: webhook_secret.', 'webhook_secret');
  if (!STRIPE_KEY[scope.mode].test(input.secret_key)) {
    throw errors.invalidRequest(`In ${scope.mode} mode secret_key must be a Stripe sk_${scope.mode}_… or rk_${scope.mode}_… key.`, 'secret_key');
  }
  if (!WEBHOOK_SECRET.test(input.webhook_secret)) {
    throw errors.invalidRequest('webhook_secret must be a Stripe webhook signing secret (whsec_…).', 'webhook_secret');
  }
}

async function readRow(q: Queryable, scope: Scope): Promise<ConnectionRow | null> {
  const rows = await q.query<ConnectionRow>(
    `SELECT provider, secret_key_enc, webhook_secret_enc, created_at, updated_at
       FROM processor_connections WHERE marketplace_id = $1 AND mode = $2`,
    [scope.marketplaceId, scope.mode],
  );
  return rows[0] ?? null;
}

function toConnection(key: Buffer, scope: Scope, row: ConnectionRow): ProcessorConnection {
  const masked = (stored: string | null, column: 'secret_key' | 'webhook_secret') =>
    stored === null ? null : maskSecret(decryptSecret(key, stored, context(scope, column)));
  return {
    object: 'processor_connection',
    marketplace: scope.marketplaceId,
    mode: scope.mode,
    provider: row.provider,
    secret_key: masked(row.secret_key_enc, 'secret_key'),
    webhook_secret: masked(row.webhook_secret_enc, 'webhook_secret'),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const notConnected = (scope: Scope) =>
  errors.missing('processor connection', `${scope.marketplaceId} (${scope.mode} mode)`);

/** The decrypted credentials the processor module uses; null when the mode has no connection. */
export async function loadProcessorCredentials(q: Queryable, key: Buffer, scope: Scope): Promise<ProcessorCredentials | null> {
  const row = await readRow(q, scope);
  if (!row) return null;
  if (row.provider === 'simulated') return { provider: 'simulated' };
  return {
    provider: 'stripe',
    secretKey: decryptSecret(key, row.secret_key_enc ?? '', context(scope, 'secret_key')),
    webhookSecret: decryptSecret(key, row.webhook_secret_enc ?? '', context(scope, 'webhook_secret')),
  };
}

export async function getProcessorConnection(deps: ManageDeps, principal: Principal, scope: Scope): Promise<ProcessorConnection> {
  await resolveMarketplace(deps.db, principal, scope.marketplaceId, 'read');
  const row = await readRow(deps.db, scope);
  if (!row) throw notConnected(scope);
  return toConnection(deps.config.secretKey, scope, row);
}

/** PUT: connects the mode, replacing any connection it had. */
export async function putProcessorConnection(
  deps: ManageDeps,
  principal: Principal,
  scope: Scope,
  input: ConnectionInput,
): Promise<ProcessorConnection> {
  checkInput(scope, input);
  const key = deps.config.secretKey;
  const encrypt = (value: string | undefined, column: 'secret_key' | 'webhook_secret') =>
    value === undefined ? null : encryptSecret(key, value, context(scope, column));
  return deps.db.transaction(async (tx) => {
    await resolveMarketplace(tx, principal, scope.marketplaceId, 'configure');
    const now = new Date(deps.clock.nowMs());
    const [row] = await tx.query<ConnectionRow>(
      `INSERT INTO processor_connections (marketplace_id, mode, provider, secret_key_enc, webhook_secret_enc, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (marketplace_id, mode) DO UPDATE SET provider = EXCLUDED.provider, secret_key_enc = EXCLUDED.secret_key_enc,
         webhook_secret_enc = EXCLUDED.webhook_secret_enc, updated_at = EXCLUDED.updated_at
       RETURNING provider, secret_key_enc, webhook_secret_enc, created_at, updated_at`,
      [scope.marketplaceId, scope.mode, input.provider, encrypt(input.secret_key, 'secret_key'), encrypt(input.webhook_secret, 'webhook_secret'), now],
    );
    return toConnection(key, scope, row!);
  });
}

/** DELETE: disconnects the mode; orders that need a processor then answer processor_not_connected. */
export async function deleteProcessorConnection(
  deps: ManageDeps,
  principal: Principal,
  scope: Scope,
): Promise<ProcessorConnection & { deleted: true }> {
  return deps.db.transaction(async (tx) => {
    await resolveMarketplace(tx, principal, scope.marketplaceId, 'configure');
    const [row] = await tx.query<ConnectionRow>(
      `DELETE FROM processor_connections WHERE marketplace_id = $1 AND mode = $2
       RETURNING provider, secret_key_enc, webhook_secret_enc, created_at, updated_at`,
      [scope.marketplaceId, scope.mode],
    );
    if (!row) throw notConnected(scope);
    return { ...toConnection(deps.config.secretKey, scope, row), deleted: true };
  });
}
