// The checkouts module's manifest (src/contracts/wiring.ts): checkouts. Their status follows their
// orders by the flows' explicit step (follow-orders.ts), not by a subscriber.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { CHECKOUT_ID_PREFIXES, CHECKOUT_EVENT_TYPES } from './declarations.js';
import { expandableCheckout } from './expandable.js';
import { checkoutRoutes } from './routes/index.js';

export const checkoutsModule: ModuleManifest = {
  name: 'checkouts',
  tables: ['checkouts'],
  idPrefixes: CHECKOUT_ID_PREFIXES,
  eventTypes: CHECKOUT_EVENT_TYPES,
  routes: { secret: checkoutRoutes },
  expandable: [expandableCheckout],
  tags: [{ name: 'Checkouts', description: "A buyer's cart across sellers: one order per item, all made or none, paid by one payment; each order then lives its own life (docs/decisions/checkouts.md).", rank: 90 }],
};
