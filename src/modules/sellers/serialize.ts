// Seller rows as API objects.
import type { Reputation, Seller, SellerProfile, Storefront } from './schemas.js';
import type { SellerRow } from './queries.js';

const iso = (value: Date | string): string => new Date(value).toISOString();

export function serializeStorefront(row: NonNullable<SellerRow['storefront']>): Storefront {
  return {
    object: 'storefront',
    id: row.id,
    seller: row.seller_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    metadata: row.metadata,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function serializeSeller(row: SellerRow): Seller {
  return {
    object: 'seller',
    id: row.id,
    external_id: row.external_id,
    name: row.name,
    email: row.email,
    status: row.status,
    suspended_reason: row.suspended_reason,
    verification: {
      status: row.verification_status,
      updated_at: row.verification_updated_at ? iso(row.verification_updated_at) : null,
    },
    payouts: { status: row.payouts_status, processor_account: row.processor_account },
    storefront: row.storefront ? serializeStorefront(row.storefront) : null,
    metadata: row.metadata,
    erased_at: row.erased_at ? iso(row.erased_at) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Only what a buyer may see: no email, external id, metadata or moderation detail. */
export function serializeProfile(row: SellerRow, reputation: Reputation): SellerProfile {
  return {
    object: 'seller_profile',
    id: row.id,
    name: row.name,
    storefront: row.storefront
      ? { name: row.storefront.name, slug: row.storefront.slug, description: row.storefront.description }
      : null,
    reputation,
    created_at: iso(row.created_at),
  };
}
