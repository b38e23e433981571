// The route table: which module's routes live in which auth scope. Adding a module is one line.
// Beside it, the other cross-module wiring: erasure.ts (what each module erases of a seller or
// buyer) and drivers.ts (processors and storage, by name).
import type { RouteTable } from '../http/app.js';
import { buyerRoutes } from '../modules/buyers/routes/index.js';
import { categoryRoutes } from '../modules/categories/routes/index.js';
import { dashboardPageRoutes } from '../modules/dashboard/pages.js';
import { eventRoutes } from '../modules/events/routes/index.js';
import { listingPublicRoutes, listingRoutes } from '../modules/listings/routes/index.js';
import { manageRoutes } from './manage-routes.js';
import { marketplaceRoutes } from '../modules/marketplaces/routes/index.js';
import { mediaFilePageRoutes, mediaRoutes } from '../modules/media/routes/index.js';
import { moderationRoutes } from '../modules/moderation/routes/index.js';
import { onboardingPageRoutes, onboardingRoutes } from '../modules/onboarding/routes/index.js';
import { orderRoutes } from '../modules/orders/routes/index.js';
import { registerOrderPaymentHooks } from '../contracts/order-payments.js';
import { paymentOrderHooks } from '../modules/payments/order-hooks.js';
import { paymentApiRoutes, paymentPageRoutes } from '../modules/payments/routes/index.js';
import { processorWebhookRoutes } from '../modules/processor-webhooks/routes/index.js';
import { reputationRoutes } from '../modules/reputation/routes/index.js';
import { reviewRoutes } from '../modules/reviews/routes/index.js';
import { sellerPublicRoutes, sellerRoutes } from '../modules/sellers/routes/index.js';
import { testHelperRoutes } from '../modules/test-helpers/routes/index.js';
import { verificationRoutes } from '../modules/verifications/routes/index.js';
import { webhookRoutes } from '../modules/webhooks/routes/index.js';

export const routeTable: RouteTable = {
  publishable: [...sellerPublicRoutes, ...listingPublicRoutes],
  secret: [
    ...marketplaceRoutes,
    ...eventRoutes,
    ...testHelperRoutes,
    ...categoryRoutes,
    ...listingRoutes,
    ...sellerRoutes,
    ...buyerRoutes,
    ...verificationRoutes,
    ...onboardingRoutes,
    ...webhookRoutes,
    ...orderRoutes,
    ...paymentApiRoutes,
    ...reviewRoutes,
    ...reputationRoutes,
    ...mediaRoutes,
    ...moderationRoutes,
  ],
  manage: [manageRoutes],
  root: [...onboardingPageRoutes, ...paymentPageRoutes, ...mediaFilePageRoutes, ...processorWebhookRoutes, dashboardPageRoutes],
};

// Orders with payments on: the payments module's side of each order move (order-payments.ts).
registerOrderPaymentHooks(paymentOrderHooks);
