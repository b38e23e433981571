// The orders module's manifest (src/contracts/wiring.ts): orders, cancellation proposals and
// disputes, with the timers of their windows.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { DISPUTE_DECISION_TIMER, disputeDecisionTimer } from './disputes.js';
import { ordersErasure } from './erasure.js';
import { expandableDispute, expandableOrder } from './expandable.js';
import {
  CLAIM_WINDOW_TIMER,
  CONFIRM_WINDOW_TIMER,
  confirmOrderTimer,
  expireUnclaimedOrderTimer,
  expireUnpaidOrderTimer,
  PAYMENT_WINDOW_TIMER,
} from './operations.js';
import { orderRoutes } from './routes/index.js';

export const ordersModule: ModuleManifest = {
  name: 'orders',
  tables: ['orders', 'order_transitions', 'disputes'],
  routes: { secret: orderRoutes },
  timers: {
    [PAYMENT_WINDOW_TIMER]: expireUnpaidOrderTimer,
    [CLAIM_WINDOW_TIMER]: expireUnclaimedOrderTimer,
    [CONFIRM_WINDOW_TIMER]: confirmOrderTimer,
    [DISPUTE_DECISION_TIMER]: disputeDecisionTimer,
  },
  erasure: ordersErasure,
  expandable: [expandableOrder, expandableDispute],
};
