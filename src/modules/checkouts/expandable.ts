// The checkout as `expand[]` reads it (src/contracts/expansion.ts): with the page URL of those
// awaiting payment, read for all of them in one more statement.
import { byId, type ExpandableObject } from '../../contracts/expansion.js';
import { paymentPageUrls } from '../payments/index.js';
import { selectCheckoutsByIds } from './queries.js';
import { Checkout } from './schemas.js';
import { serializeCheckout } from './serialize.js';

export const expandableCheckout: ExpandableObject = {
  object: 'checkout',
  schema: Checkout,
  publishable: false,
  fields: { buyer: 'buyer', payment: 'payment' },
  load: async (ctx, ids) => {
    const rows = await selectCheckoutsByIds(ctx.db, ctx.scope, ids);
    const awaiting = rows.flatMap((row) => (row.status === 'awaiting_payment' && row.payment_id !== null ? [row.payment_id] : []));
    const urls = awaiting.length === 0 ? new Map<string, string | null>() : await paymentPageUrls(ctx.db, ctx.scope, awaiting);
    return byId(rows.map((row) => serializeCheckout(row, row.status === 'awaiting_payment' && row.payment_id !== null ? (urls.get(row.payment_id) ?? null) : null)));
  },
};
