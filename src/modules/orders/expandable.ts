// The order and the dispute as `expand[]` reads them (src/contracts/expansion.ts): an order's ids
// of other objects expand; a dispute is expanded in an order.
import { byId, type ExpandableObject } from '../../contracts/expansion.js';
import { selectDisputesByIds, selectOrdersByIds } from './queries.js';
import { Dispute, Order } from './schemas.js';
import { serializeDispute, serializeOrder } from './serialize.js';

export const expandableOrder: ExpandableObject = {
  object: 'order',
  schema: Order,
  publishable: false,
  fields: { listing: 'listing', buyer: 'buyer', seller: 'seller', payment: 'payment', checkout: 'checkout', dispute: 'dispute' },
  load: async (ctx, ids) => byId((await selectOrdersByIds(ctx.db, ctx.scope, ids)).map(serializeOrder)),
};

export const expandableDispute: ExpandableObject = {
  object: 'dispute',
  schema: Dispute,
  publishable: false,
  fields: {},
  load: async (ctx, ids) => byId((await selectDisputesByIds(ctx.db, ctx.scope, ids)).map(serializeDispute)),
};
