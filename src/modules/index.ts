// The route table: which module's routes live in which auth scope. Adding a module is one line.
import type { RouteTable } from '../http/app.js';
import { marketplaceRoutes } from './marketplace/routes.js';

export const routeTable: RouteTable = {
  publishable: [],
  secret: [marketplaceRoutes],
  manage: [],
  root: [],
};
