// The payment, refund and card dispute operations and their test helpers (secret key). The
// simulated processor's checkout page is the processor's (src/adapters/processors/simulated/).
import type { RouteModule } from '../../../contracts/wiring.js';
import { cardDisputeRoutes } from './card-disputes.js';
import { paymentRoutes } from './payments.js';
import { refundRoutes } from './refunds.js';
import { paymentTestHelperRoutes } from './test-helpers.js';

export const paymentApiRoutes: RouteModule[] = [paymentRoutes, refundRoutes, cardDisputeRoutes, paymentTestHelperRoutes];
