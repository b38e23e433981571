// The seller routes: secret-key operations, and the public profile for the publishable scope.
import type { RouteModule } from '../../../http/types.js';
import { createSellerRoute } from './create.js';
import { eraseSellerRoute } from './erase.js';
import { listSellersRoute } from './list.js';
import { sellerProfileRoute } from './profile.js';
import { putStorefrontRoute } from './put-storefront.js';
import { retrieveSellerRoute } from './retrieve.js';
import { suspendSellerRoute } from './suspend.js';
import { unsuspendSellerRoute } from './unsuspend.js';
import { updateSellerRoute } from './update.js';

export const sellerRoutes: RouteModule = (app, services) => {
  createSellerRoute(app, services);
  listSellersRoute(app, services);
  retrieveSellerRoute(app, services);
  updateSellerRoute(app, services);
  eraseSellerRoute(app, services);
  putStorefrontRoute(app, services);
  suspendSellerRoute(app, services);
  unsuspendSellerRoute(app, services);
};

export const sellerPublicRoutes: RouteModule = (app, services) => {
  sellerProfileRoute(app, services);
};
