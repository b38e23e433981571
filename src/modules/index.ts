// The route table: which module's routes live in which auth scope. Adding a module is one line.
// Beside it, the other cross-module wiring: erasure.ts (what each module erases of a seller or
// buyer) and drivers.ts (processors and storage, by name).
import type { RouteTable } from '../http/app.js';
import { buyerRoutes } from './buyers/routes/index.js';
import { categoryRoutes } from './categories/routes/index.js';
import { dashboardPageRoutes } from './dashboard/pages.js';
import { eventRoutes } from './events/routes/index.js';
import { listingPublicRoutes, listingRoutes } from './listings/routes/index.js';
import { manageRoutes } from './manage/index.js';
import { marketplaceRoutes } from './marketplace/routes/index.js';
import { mediaFilePageRoutes, mediaRoutes } from './media/routes/index.js';
import { moderationRoutes } from './moderation/routes/index.js';
import { onboardingPageRoutes, onboardingRoutes } from './onboarding/routes/index.js';
import { orderRoutes } from './orders/routes/index.js';
import { registerOrderPaymentHooks } from './order-payments.js';
import { paymentOrderHooks } from './payments/order-hooks.js';
import { paymentApiRoutes, paymentPageRoutes } from './payments/routes/index.js';
import { processorWebhookRoutes } from './processor-webhooks/routes/index.js';
import { reputationRoutes } from './reputation/routes/index.js';
import { reviewRoutes } from './reviews/routes/index.js';
import { sellerPublicRoutes, sellerRoutes } from './sellers/routes/index.js';
import { testHelperRoutes } from './test-helpers/routes/index.js';
import { verificationRoutes } from './verifications/routes/index.js';
import { webhookRoutes } from './webhooks/routes/index.js';

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
