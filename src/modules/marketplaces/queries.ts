// Every SQL statement of the marketplaces module: marketplaces (scoped by their workspace), and
// the modes, API keys and processor connections of each (scoped by marketplace_id and mode).
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Mode, Scope } from '../../scope.js';
import type { ApiKeyType, Provider } from './schemas.js';

export interface MarketplaceRow {
  id: string;
  workspace_id: string;
  name: string;
  currency: string;
  created_at: Date;
}

export interface ApiKeyRow {
  marketplace_id: string;
  mode: Mode;
  id: string;
  type: ApiKeyType;
  name: string | null;
  publishable_key: string | null;
  last4: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export interface ConnectionRow {
  provider: Provider;
  secret_key_enc: string | null;
  webhook_secret_enc: string | null;
  connect_webhook_secret_enc: string | null;
  created_at: Date;
  updated_at: Date;
}

// ---- marketplaces and their modes ----

const MARKETPLACE_COLUMNS = 'id, workspace_id, name, currency, created_at';

export async function insertMarketplace(tx: Tx, row: MarketplaceRow): Promise<void> {
  await tx.query('INSERT INTO marketplaces (id, workspace_id, name, currency, created_at) VALUES ($1, $2, $3, $4, $5)', [
    row.id,
    row.workspace_id,
    row.name,
    row.currency,
    row.created_at,
  ]);
}

export async function selectMarketplace(q: Queryable, workspaceId: string, id: string): Promise<MarketplaceRow | null> {
  const rows = await q.query<MarketplaceRow>(`SELECT ${MARKETPLACE_COLUMNS} FROM marketplaces WHERE workspace_id = $1 AND id = $2`, [
    workspaceId,
    id,
  ]);
  return rows[0] ?? null;
}

export function selectMarketplaces(q: Queryable, workspaceId: string, page: PageRequest): Promise<MarketplaceRow[]> {
  return selectPage<MarketplaceRow>(q, {
    sql: `SELECT ${MARKETPLACE_COLUMNS} FROM marketplaces WHERE workspace_id = $1`,
    params: [workspaceId],
    page,
  });
}

export async function countMarketplaces(tx: Tx, workspaceId: string): Promise<number> {
  const rows = await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM marketplaces WHERE workspace_id = $1', [workspaceId]);
  return Number(rows[0]?.count ?? 0);
}

export async function insertMode(tx: Tx, scope: Scope, settings: object, now: Date): Promise<void> {
  await tx.query('INSERT INTO marketplace_modes (marketplace_id, mode, settings, updated_at) VALUES ($1, $2, $3, $4)', [
    scope.marketplaceId,
    scope.mode,
    JSON.stringify(settings),
    now,
  ]);
}

export interface ModeSettingsRow {
  settings: unknown;
  updated_at: Date;
}

export async function selectModeSettings(q: Queryable, scope: Scope): Promise<ModeSettingsRow | null> {
  const rows = await q.query<ModeSettingsRow>('SELECT settings, updated_at FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
  ]);
  return rows[0] ?? null;
}

export async function lockModeSettings(tx: Tx, scope: Scope): Promise<ModeSettingsRow | null> {
  const rows = await tx.query<ModeSettingsRow>(
    'SELECT settings, updated_at FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2 FOR UPDATE',
    [scope.marketplaceId, scope.mode],
  );
  return rows[0] ?? null;
}

export async function updateModeSettings(tx: Tx, scope: Scope, settings: object, now: Date): Promise<void> {
  await tx.query('UPDATE marketplace_modes SET settings = $3, updated_at = $4 WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
    JSON.stringify(settings),
    now,
  ]);
}

// ---- API keys ----

const KEY_COLUMNS = 'marketplace_id, mode, id, type, name, publishable_key, last4, created_at, expires_at, revoked_at';

export async function insertApiKey(
  tx: Tx,
  scope: Scope,
  key: { id: string; type: ApiKeyType; name: string | null; key_hash: string; publishable_key: string | null; last4: string; created_at: Date; expires_at: Date | null },
): Promise<void> {
  await tx.query(
    `INSERT INTO api_keys (marketplace_id, mode, id, type, name, key_hash, publishable_key, last4, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [scope.marketplaceId, scope.mode, key.id, key.type, key.name, key.key_hash, key.publishable_key, key.last4, key.created_at, key.expires_at],
  );
}

/**
 * Locks the mode's row for a per-mode bound (API keys, webhook endpoints): two creates in one mode
 * take turns, so the count each reads afterwards (a statement of its own, with a fresh snapshot)
 * includes the other's. FOR NO KEY UPDATE leaves the foreign keys' FOR KEY SHARE of other inserts
 * unblocked.
 */
/** The workspace of a marketplace whose mode exists. */
export async function selectWorkspaceOfMode(q: Queryable, scope: Scope): Promise<string | null> {
  const rows = await q.query<{ workspace_id: string }>(
    'SELECT workspace_id FROM marketplaces WHERE id = $1 AND EXISTS (SELECT 1 FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2)',
    [scope.marketplaceId, scope.mode],
  );
  return rows[0]?.workspace_id ?? null;
}

export interface MarketplaceModeRow {
  workspace_id: string;
  name: string;
  currency: string;
  created_at: Date;
  settings: unknown;
}

/** A marketplace with the stored settings of one of its modes. */
export async function selectMarketplaceMode(q: Queryable, scope: Scope): Promise<MarketplaceModeRow | null> {
  const rows = await q.query<MarketplaceModeRow>(
    `SELECT m.workspace_id, m.name, m.currency, m.created_at, mm.settings
       FROM marketplaces m JOIN marketplace_modes mm ON mm.marketplace_id = m.id AND mm.mode = $2
      WHERE m.id = $1`,
    [scope.marketplaceId, scope.mode],
  );
  return rows[0] ?? null;
}

/**
 * Moves the mode's clock forward. One UPDATE of the mode's row: it takes the row lock, so
 * concurrent advances add up instead of one overwriting the other.
 */
export async function updateClockOffset(tx: Tx, scope: Scope, addMs: number): Promise<void> {
  await tx.query('UPDATE marketplace_modes SET clock_offset_ms = clock_offset_ms + $3 WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
    addMs,
  ]);
}

export async function lockModeRow(tx: Tx, scope: Scope): Promise<void> {
  await tx.query('SELECT 1 FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2 FOR NO KEY UPDATE', [scope.marketplaceId, scope.mode]);
}

/** The mode's keys that still work at `now`: neither revoked nor expired. */
export async function countWorkingApiKeys(q: Queryable, scope: Scope, now: Date): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_keys
      WHERE marketplace_id = $1 AND mode = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3)`,
    [scope.marketplaceId, scope.mode, now],
  );
  return Number(rows[0]!.n);
}

export function selectApiKeys(q: Queryable, scope: Scope, page: PageRequest, filter: { type?: ApiKeyType } = {}): Promise<ApiKeyRow[]> {
  return selectPage<ApiKeyRow>(q, {
    sql: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { type: filter.type },
    page,
  });
}

/**
 * The marketplace and mode of a key known only by its id (PATCH-like routes name the key alone);
 * the key is then read again, locked, within that scope. Key ids are unique across marketplaces.
 */
export async function selectApiKeyScope(q: Queryable, id: string): Promise<Scope | null> {
  const rows = await q.query<{ marketplace_id: string; mode: Mode }>('SELECT marketplace_id, mode FROM api_keys WHERE id = $1', [id]);
  const row = rows[0];
  return row ? { marketplaceId: row.marketplace_id, mode: row.mode } : null;
}

export async function lockApiKey(tx: Tx, scope: Scope, id: string): Promise<ApiKeyRow | null> {
  const rows = await tx.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function updateApiKeyExpiry(tx: Tx, scope: Scope, id: string, expiresAt: Date): Promise<void> {
  await tx.query('UPDATE api_keys SET expires_at = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
    scope.marketplaceId,
    scope.mode,
    id,
    expiresAt,
  ]);
}

export async function updateApiKeyRevoked(tx: Tx, scope: Scope, id: string, now: Date): Promise<ApiKeyRow> {
  const rows = await tx.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3 RETURNING ${KEY_COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, now],
  );
  return rows[0]!;
}

// ---- processor connections ----

const CONNECTION_COLUMNS = 'provider, secret_key_enc, webhook_secret_enc, connect_webhook_secret_enc, created_at, updated_at';

export async function selectConnection(q: Queryable, scope: Scope): Promise<ConnectionRow | null> {
  const rows = await q.query<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM processor_connections WHERE marketplace_id = $1 AND mode = $2`, [
    scope.marketplaceId,
    scope.mode,
  ]);
  return rows[0] ?? null;
}

/** Connects the mode, replacing any connection it had. */
export async function upsertConnection(
  tx: Tx,
  scope: Scope,
  connection: { provider: Provider; secret_key_enc: string | null; webhook_secret_enc: string | null; connect_webhook_secret_enc: string | null; now: Date },
): Promise<ConnectionRow> {
  const rows = await tx.query<ConnectionRow>(
    `INSERT INTO processor_connections (marketplace_id, mode, provider, secret_key_enc, webhook_secret_enc, connect_webhook_secret_enc,
                                        created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $7, $6, $6)
     ON CONFLICT (marketplace_id, mode) DO UPDATE SET provider = EXCLUDED.provider, secret_key_enc = EXCLUDED.secret_key_enc,
       webhook_secret_enc = EXCLUDED.webhook_secret_enc, connect_webhook_secret_enc = EXCLUDED.connect_webhook_secret_enc,
       updated_at = EXCLUDED.updated_at
     RETURNING ${CONNECTION_COLUMNS}`,
    [scope.marketplaceId, scope.mode, connection.provider, connection.secret_key_enc, connection.webhook_secret_enc, connection.now, connection.connect_webhook_secret_enc],
  );
  return rows[0]!;
}

export async function deleteConnection(tx: Tx, scope: Scope): Promise<ConnectionRow | null> {
  const rows = await tx.query<ConnectionRow>(
    `DELETE FROM processor_connections WHERE marketplace_id = $1 AND mode = $2 RETURNING ${CONNECTION_COLUMNS}`,
    [scope.marketplaceId, scope.mode],
  );
  return rows[0] ?? null;
}

/** The stored settings of the mode (a partial object: settings added later read with their default). */
export async function selectSettings(q: Queryable, scope: Scope): Promise<unknown> {
  const rows = await q.query<{ settings: unknown }>('SELECT settings FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
  ]);
  return rows[0]?.settings ?? {};
}

/** The stored settings and the test clock's offset in one statement (docs/performance.md R2: order creation). */
export async function selectSettingsAndClockOffset(q: Queryable, scope: Scope): Promise<{ settings: unknown; clock_offset_ms: number | string }> {
  const rows = await q.query<{ settings: unknown; clock_offset_ms: number | string }>(
    'SELECT settings, clock_offset_ms FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2',
    [scope.marketplaceId, scope.mode],
  );
  return rows[0] ?? { settings: {}, clock_offset_ms: 0 };
}
