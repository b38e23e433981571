// Marketplace, API-key and processor-connection rows as management API objects.
import type { Scope } from '../../scope.js';
import { decryptSecret, maskSecret } from '../../secrets.js';
import type { ApiKeyRow, ConnectionRow, MarketplaceRow } from './queries.js';
import type { ApiKey, ManagedMarketplace, ProcessorConnection } from './schemas.js';

export function serializeMarketplace(row: MarketplaceRow): ManagedMarketplace {
  return {
    object: 'marketplace',
    id: row.id,
    workspace: row.workspace_id,
    name: row.name,
    currency: row.currency,
    created_at: row.created_at.toISOString(),
  };
}

/** sk_test_…abcd: enough to recognise a key without revealing it. */
export function maskKey(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}

/** A stored key: never whole again, except a publishable key (they are public). */
export function serializeApiKey(row: ApiKeyRow): ApiKey {
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

/** The associated data a connection secret is encrypted with: its place, so a copy elsewhere does not decrypt. */
export type SecretColumn = 'secret_key' | 'webhook_secret' | 'connect_webhook_secret';

export function secretContext(scope: Scope, column: SecretColumn): string {
  return `processor_connections:${scope.marketplaceId}:${scope.mode}:${column}`;
}

/** The connection with its secrets masked. */
export function serializeConnection(key: Buffer, scope: Scope, row: ConnectionRow): ProcessorConnection {
  const masked = (stored: string | null, column: SecretColumn) =>
    stored === null ? null : maskSecret(decryptSecret(key, stored, secretContext(scope, column)));
  return {
    object: 'processor_connection',
    marketplace: scope.marketplaceId,
    mode: scope.mode,
    provider: row.provider,
    secret_key: masked(row.secret_key_enc, 'secret_key'),
    webhook_secret: masked(row.webhook_secret_enc, 'webhook_secret'),
    connect_webhook_secret: masked(row.connect_webhook_secret_enc, 'connect_webhook_secret'),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
