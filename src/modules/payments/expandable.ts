// The payment and the refund as `expand[]` reads them (src/contracts/expansion.ts): a refund's
// order and payment expand (and the order's own fields, a second level).
import { byId, type ExpandableObject } from '../../contracts/expansion.js';
import { selectPaymentsByIds, selectRefundsByIds } from './queries.js';
import { Payment, Refund } from './schemas.js';
import { serializePayment, serializeRefund } from './serialize.js';

export const expandablePayment: ExpandableObject = {
  object: 'payment',
  schema: Payment,
  publishable: false,
  fields: {},
  load: async (ctx, ids) => byId((await selectPaymentsByIds(ctx.db, ctx.scope, ids)).map(serializePayment)),
};

export const expandableRefund: ExpandableObject = {
  object: 'refund',
  schema: Refund,
  publishable: false,
  fields: { order: 'order', payment: 'payment' },
  load: async (ctx, ids) => byId((await selectRefundsByIds(ctx.db, ctx.scope, ids)).map(serializeRefund)),
};
