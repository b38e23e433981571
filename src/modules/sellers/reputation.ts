// A seller's reputation as shown on the public profile, computed by the reputation module from
// the seller's reputation events: the average of its counted review ratings (one decimal), their
// count, and its completed orders; voided events (removed reviews) left out.
import type { Queryable } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { computeReputation } from '../reputation/index.js';
import type { Reputation } from './schemas.js';

export function sellerReputation(q: Queryable, scope: Scope, sellerId: string): Promise<Reputation> {
  return computeReputation(q, scope, sellerId);
}
