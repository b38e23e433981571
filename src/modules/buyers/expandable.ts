// The buyer as `expand[]` reads it (src/contracts/expansion.ts); an erased buyer reads redacted, as its retrieve route answers it.
import { byId, type ExpandableObject } from '../../contracts/expansion.js';
import { selectBuyersByIds } from './queries.js';
import { Buyer } from './schemas.js';
import { serializeBuyer } from './serialize.js';

export const expandableBuyer: ExpandableObject = {
  object: 'buyer',
  schema: Buyer,
  publishable: false,
  fields: {},
  load: async (ctx, ids) => byId((await selectBuyersByIds(ctx.db, ctx.scope, ids)).map(serializeBuyer)),
};
