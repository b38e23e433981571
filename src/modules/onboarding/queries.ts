// Every SQL statement of the onboarding module. Each names marketplace_id and mode, except the
// lookup of the simulated processor's page, which only has the link id (see 0002_parties.sql).
import type { Queryable, Tx } from '../../db/db.js';
import type { Mode, Scope } from '../../scope.js';

export interface OnboardingLinkRow {
  marketplace_id: string;
  mode: Mode;
  id: string;
  seller_id: string;
  return_url: string;
  refresh_url: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
  /** The URL answered (migrations/0033_onboarding_link_url.sql); null for links made before it. */
  url: string | null;
}

const COLUMNS = 'marketplace_id, mode, id, seller_id, return_url, refresh_url, expires_at, used_at, created_at, url';

export async function insertOnboardingLink(
  tx: Tx,
  scope: Scope,
  row: Pick<OnboardingLinkRow, 'id' | 'seller_id' | 'return_url' | 'refresh_url' | 'expires_at' | 'created_at' | 'url'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO onboarding_links (marketplace_id, mode, id, seller_id, return_url, refresh_url, expires_at, created_at, url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [scope.marketplaceId, scope.mode, row.id, row.seller_id, row.return_url, row.refresh_url, row.expires_at, row.created_at, row.url],
  );
}

/**
 * The link behind a simulated onboarding page: found by its id alone (the page has no API key). Ids
 * are unique across tenants by construction (src/ids.ts), not by an index: a sharded table keeps
 * keys unique within a tenant only (migrations/0034_distribution_ready.sql).
 */
export async function selectOnboardingLinkById(q: Queryable, id: string): Promise<OnboardingLinkRow | null> {
  const rows = await q.query<OnboardingLinkRow>(`SELECT ${COLUMNS} FROM onboarding_links WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function lockOnboardingLink(tx: Tx, scope: Scope, id: string): Promise<OnboardingLinkRow | null> {
  const rows = await tx.query<OnboardingLinkRow>(
    `SELECT ${COLUMNS} FROM onboarding_links WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export async function updateOnboardingLinkUsed(tx: Tx, scope: Scope, id: string, now: Date): Promise<void> {
  await tx.query('UPDATE onboarding_links SET used_at = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
    scope.marketplaceId,
    scope.mode,
    id,
    now,
  ]);
}

/** Erasure: the return and refresh URLs may carry the seller's data; the links go. */
export async function deleteOnboardingLinksOfSeller(tx: Tx, scope: Scope, sellerId: string): Promise<void> {
  await tx.query('DELETE FROM onboarding_links WHERE marketplace_id = $1 AND mode = $2 AND seller_id = $3', [
    scope.marketplaceId,
    scope.mode,
    sellerId,
  ]);
}
