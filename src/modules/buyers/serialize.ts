// Buyer rows as API objects.
import type { BuyerRow } from './queries.js';
import type { Buyer } from './schemas.js';

export function serializeBuyer(row: BuyerRow): Buyer {
  return {
    object: 'buyer',
    id: row.id,
    external_id: row.external_id,
    name: row.name,
    email: row.email,
    metadata: row.metadata,
    erased_at: row.erased_at ? row.erased_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
