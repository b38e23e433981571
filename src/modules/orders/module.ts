// The orders module's manifest (src/contracts/wiring.ts): orders, cancellation proposals and
// disputes, with the dispute's decision timer (the order's window timers move its payment too:
// they are a flow's, src/flows/order-timers.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { BOOKING_STARTING_TIMER, bookingStartingTimer } from './booking-reminder.js';
import { ORDER_ERROR_CODES, ORDER_ID_PREFIXES, ORDER_EVENT_TYPES } from './declarations.js';
import { DISPUTE_DECISION_TIMER, disputeDecisionTimer } from './disputes.js';
import { ordersErasure } from './erasure.js';
import { expandableDispute, expandableOrder } from './expandable.js';
import { orderRoutes } from './routes/index.js';

export const ordersModule: ModuleManifest = {
  name: 'orders',
  tables: ['orders', 'order_transitions', 'disputes'],
  idPrefixes: ORDER_ID_PREFIXES,
  eventTypes: ORDER_EVENT_TYPES,
  routes: { secret: orderRoutes },
  timers: {
    [DISPUTE_DECISION_TIMER]: disputeDecisionTimer,
    [BOOKING_STARTING_TIMER]: bookingStartingTimer,
  },
  erasure: { participant: ordersErasure },
  expandable: [expandableOrder, expandableDispute],
  errorCodes: ORDER_ERROR_CODES,
  tags: [
    { name: 'Orders', description: 'Orders: units reserved at once, then claim, confirm, cancellation, dispute and the windows of docs/orders.md.', rank: 80 },
    { name: 'Disputes', description: "A buyer's dispute of an order: evidence from both parties, decided by the platform.", rank: 100 },
  ],
};
