// The orders module's manifest (src/contracts/wiring.ts): orders, cancellation proposals and
// disputes, with the dispute's decision timer (the order's window timers move its payment too:
// they are a flow's, src/flows/order-timers.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { DISPUTE_DECISION_TIMER, disputeDecisionTimer } from './disputes.js';
import { ordersErasure } from './erasure.js';
import { expandableDispute, expandableOrder } from './expandable.js';
import { orderRoutes } from './routes/index.js';

export const ordersModule: ModuleManifest = {
  name: 'orders',
  routes: { secret: orderRoutes },
  timers: {
    [DISPUTE_DECISION_TIMER]: disputeDecisionTimer,
  },
  erasure: ordersErasure,
  expandable: [expandableOrder, expandableDispute],
};
