// The payment, refund and card dispute operations and their test helpers (secret key), and the
// simulated processor's checkout page (no key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { cardDisputeRoutes } from './card-disputes.js';
import { paymentRoutes } from './payments.js';
import { refundRoutes } from './refunds.js';
import { simulatedCheckoutPages } from './simulated-checkout.js';
import { paymentTestHelperRoutes } from './test-helpers.js';

export const paymentApiRoutes: RouteModule[] = [paymentRoutes, refundRoutes, cardDisputeRoutes, paymentTestHelperRoutes];
export const paymentPageRoutes: RouteModule[] = [simulatedCheckoutPages];
