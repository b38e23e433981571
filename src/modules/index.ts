// The route table: which module's routes live in which auth scope. Adding a module is one line.
import type { RouteTable } from '../http/app.js';
import { buyerRoutes } from './buyers/routes/index.js';
import { categoryRoutes } from './categories/routes/index.js';
import { eventRoutes } from './events/routes.js';
import { listingPublicRoutes, listingRoutes } from './listings/routes/index.js';
import { marketplaceRoutes } from './marketplace/routes.js';
import { manageRoutes } from './manage/index.js';
import { onboardingRoutes, simulatedOnboardingPages } from './onboarding/routes/index.js';
import { sellerPublicRoutes, sellerRoutes } from './sellers/routes/index.js';
import { testClockRoutes } from './test-helpers/clock-routes.js';
import { verificationRoutes } from './verifications/routes/index.js';

export const routeTable: RouteTable = {
  publishable: [sellerPublicRoutes, listingPublicRoutes],
  secret: [marketplaceRoutes, eventRoutes, testClockRoutes, categoryRoutes, listingRoutes, sellerRoutes, buyerRoutes, verificationRoutes, onboardingRoutes],
  manage: [manageRoutes],
  root: [simulatedOnboardingPages],
};
