// The orders module's manifest (src/contracts/wiring.ts): orders, cancellation proposals and
// disputes, with the timers of their windows.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { ORDER_ERROR_CODES } from './declarations.js';
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
  erasure: { participant: ordersErasure },
  expandable: [expandableOrder, expandableDispute],
  errorCodes: ORDER_ERROR_CODES,
  tags: [
    { name: 'Orders', description: 'Orders: units reserved at once, then claim, confirm, cancellation, dispute and the windows of docs/orders.md.', rank: 80 },
    { name: 'Disputes', description: "A buyer's dispute of an order: evidence from both parties, decided by the platform.", rank: 100 },
  ],
};
