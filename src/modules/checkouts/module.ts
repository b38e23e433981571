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
};
