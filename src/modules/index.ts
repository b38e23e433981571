// The route table: which module's routes live in which auth scope. Adding a module is one line.
import type { RouteTable } from '../http/app.js';
import { eventRoutes } from './events/routes.js';
import { marketplaceRoutes } from './marketplace/routes.js';
import { manageRoutes } from './manage/index.js';
import { testClockRoutes } from './test-helpers/clock-routes.js';

export const routeTable: RouteTable = {
  publishable: [],
  secret: [marketplaceRoutes, eventRoutes, testClockRoutes],
  manage: [manageRoutes],
  root: [],
};
