// Listing row → the API object (the Listing schema of the OpenAPI document).
import type { Media } from '../media/index.js';
import type { ListingRow } from './queries.js';
import type { Listing } from './schemas.js';

/** `media`: the listing's ready media by position, then age (readyMediaOfListings); none when not given. */
export function serializeListing(row: ListingRow, media: Media[] = []): Listing {
  return {
    object: 'listing',
    id: row.id,
    seller: row.seller_id,
    category: row.category_id,
    title: row.title,
    description: row.description,
    price: { amount: Number(row.price_amount), currency: row.currency },
    quantity: row.quantity,
    quantity_available: row.quantity - row.quantity_reserved - row.quantity_sold,
    unit_type: row.unit_type,
    seats: row.seats,
    slot_minutes: row.slot_minutes,
    status: row.status,
    attributes: row.attributes,
    media,
    metadata: row.metadata,
    published_at: row.published_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    removed_reason: row.removed_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
