// The checkouts module's manifest (src/contracts/wiring.ts): checkouts, and the subscriber by which
// a checkout's status follows its orders.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { expandableCheckout } from './expandable.js';
import { checkoutFollowsOrders } from './follow-orders.js';
import { checkoutRoutes } from './routes/index.js';

export const checkoutsModule: ModuleManifest = {
  name: 'checkouts',
  tables: ['checkouts'],
  routes: { secret: checkoutRoutes },
  expandable: [expandableCheckout],
  eventSubscribers: [checkoutFollowsOrders],
  tags: [{ name: 'Checkouts', description: "A buyer's cart across sellers: one order per item, all made or none, paid by one payment; each order then lives its own life (docs/decisions/checkouts.md).", rank: 90 }],
};
