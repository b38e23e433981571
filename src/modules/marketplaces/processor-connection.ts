// The processor connection of one mode: `simulated` (test mode only) or `stripe`
// with the platform's secret key and the webhook signing secret. Both secrets are encrypted at rest
// (src/secrets.ts) with the row's place bound in, and only ever answered masked. The keys' shapes
// are checked here; whether Stripe accepts them shows on first use (no network call on save).
import type { Queryable } from '../../db/db.js';
import { DomainError, errors } from '../../errors.js';
import type { Scope } from '../../scope.js';
import { decryptSecret, encryptSecret } from '../../secrets.js';
import { resolveMarketplace } from '../accounts/index.js';
import type { UserContext } from '../../contracts/context.js';
import type { Deps } from '../../contracts/deps.js';
import type { ProcessorCredentials, ProcessorDriver } from '../../contracts/processor.js';
import * as queries from './queries.js';
import { scopeOf, type DeletedProcessorConnection, type ModeParams, type ProcessorConnection, type Provider, type PutProcessorBody } from './schemas.js';
import { secretContext, serializeConnection, type SecretColumn } from './serialize.js';


const STRIPE_KEY = { test: /^(sk|rk)_test_[A-Za-z0-9]{16,240}$/, live: /^(sk|rk)_live_[A-Za-z0-9]{16,240}$/ };
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{16,240}$/;

function checkInput(scope: Scope, input: PutProcessorBody): void {
  if (input.provider === 'simulated') {
    if (scope.mode === 'live') {
      throw new DomainError('test_mode_only', 'The simulated processor is for test mode only; connect Stripe in live mode.', 'provider');
    }
    for (const field of ['secret_key', 'webhook_secret', 'connect_webhook_secret'] as const) {
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
  if (input.connect_webhook_secret !== undefined && !WEBHOOK_SECRET.test(input.connect_webhook_secret)) {
    throw errors.invalidRequest('connect_webhook_secret must be a Stripe webhook signing secret (whsec_…).', 'connect_webhook_secret');
  }
}

const notConnected = (scope: Scope) =>
  errors.missing('processor connection', `${scope.marketplaceId} (${scope.mode} mode)`);

/** The processor the mode is connected to, or null: for the processor drivers (src/app/wiring.ts). */
export async function connectedProvider(q: Queryable, scope: Scope): Promise<Provider | null> {
  return (await queries.selectConnection(q, scope))?.provider ?? null;
}

/** The decrypted credentials the processor module uses; null when the mode has no connection. */
export async function loadProcessorCredentials(q: Queryable, key: Buffer, scope: Scope): Promise<ProcessorCredentials | null> {
  const row = await queries.selectConnection(q, scope);
  if (!row) return null;
  if (row.provider === 'simulated') return { provider: 'simulated' };
  return {
    provider: 'stripe',
    secretKey: decryptSecret(key, row.secret_key_enc ?? '', secretContext(scope, 'secret_key')),
    webhookSecret: decryptSecret(key, row.webhook_secret_enc ?? '', secretContext(scope, 'webhook_secret')),
    connectWebhookSecret: row.connect_webhook_secret_enc === null ? null : decryptSecret(key, row.connect_webhook_secret_enc, secretContext(scope, 'connect_webhook_secret')),
  };
}

export async function retrieveProcessorConnection(ctx: UserContext, mode: ModeParams): Promise<ProcessorConnection> {
  const scope = scopeOf(mode);
  await resolveMarketplace(ctx.db, ctx.principal, scope.marketplaceId, 'read');
  const row = await queries.selectConnection(ctx.db, scope);
  if (!row) throw notConnected(scope);
  return serializeConnection(ctx.config.secretKey, scope, row);
}

/** PUT: connects the mode, replacing any connection it had. */
export async function connectProcessor(ctx: UserContext, mode: ModeParams, body: PutProcessorBody): Promise<ProcessorConnection> {
  const scope = scopeOf(mode);
  checkInput(scope, body);
  const key = ctx.config.secretKey;
  const encrypt = (value: string | undefined, column: SecretColumn) =>
    value === undefined ? null : encryptSecret(key, value, secretContext(scope, column));
  return ctx.db.transaction(async (tx) => {
    await resolveMarketplace(tx, ctx.principal, scope.marketplaceId, 'configure');
    const row = await queries.upsertConnection(tx, scope, {
      provider: body.provider,
      secret_key_enc: encrypt(body.secret_key, 'secret_key'),
      webhook_secret_enc: encrypt(body.webhook_secret, 'webhook_secret'),
      connect_webhook_secret_enc: encrypt(body.connect_webhook_secret, 'connect_webhook_secret'),
      now: new Date(ctx.clock.nowMs()),
    });
    return serializeConnection(key, scope, row);
  });
}

/** DELETE: disconnects the mode; orders that need a processor then answer processor_not_connected. */
export async function disconnectProcessor(ctx: UserContext, mode: ModeParams): Promise<DeletedProcessorConnection> {
  const scope = scopeOf(mode);
  return ctx.db.transaction(async (tx) => {
    await resolveMarketplace(tx, ctx.principal, scope.marketplaceId, 'configure');
    const row = await queries.deleteConnection(tx, scope);
    if (!row) throw notConnected(scope);
    return { ...serializeConnection(ctx.config.secretKey, scope, row), deleted: true };
  });
}

export interface ConnectedProcessor {
  driver: ProcessorDriver;
  credentials: ProcessorCredentials;
}

/** The driver and credentials of the mode's processor connection; 403 processor_not_connected without one. */
export async function processorFor(q: Queryable, deps: Deps, scope: Scope): Promise<ConnectedProcessor> {
  const credentials = await loadProcessorCredentials(q, deps.config.secretKey, scope);
  if (credentials === null) {
    throw errors.forbidden('processor_not_connected', 'This mode has no payment processor connection; connect one in the dashboard first.');
  }
  return { driver: deps.hooks.processors[credentials.provider], credentials };
}
