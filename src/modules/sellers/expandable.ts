// The seller as `expand[]` reads it (src/contracts/expansion.ts); an erased seller reads redacted,
// as its retrieve route answers it. A publishable key reads only a seller's public profile, not
// the seller, so it may not expand one.
import { byId, type ExpandableObject } from '../../contracts/expansion.js';
import { selectSellersByIds } from './queries.js';
import { Seller } from './schemas.js';
import { serializeSeller } from './serialize.js';

export const expandableSeller: ExpandableObject = {
  object: 'seller',
  schema: Seller,
  publishable: false,
  fields: {},
  load: async (ctx, ids) => byId((await selectSellersByIds(ctx.db, ctx.scope, ids)).map(serializeSeller)),
};
