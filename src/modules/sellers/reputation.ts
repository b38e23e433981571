// A seller's reputation as shown on the public profile. Computed from what the
// service records: reviews and completed orders do not exist yet, so today every seller honestly
// has no rating and no completed orders. The reviews issue extends this function (reputation
// events of kind review and order_completed, voided ones left out); its callers stay as they are.
import type { Queryable } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import type { Reputation } from './schemas.js';

export async function sellerReputation(_q: Queryable, _scope: Scope, _sellerId: string): Promise<Reputation> {
  return { rating_average: null, rating_count: 0, completed_orders: 0 };
}
