// The seller routes: secret-key operations, and the public profile for the publishable scope.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createSellerRoute } from './create.js';
import { eraseSellerRoute } from './erase.js';
import { listSellersRoute } from './list.js';
import { retrieveSellerProfileRoute } from './profile.js';
import { putStorefrontRoute } from './put-storefront.js';
import { retrieveSellerRoute } from './retrieve.js';
import { suspendSellerRoute } from './suspend.js';
import { unsuspendSellerRoute } from './unsuspend.js';
import { updateSellerRoute } from './update.js';

export const sellerRoutes: RouteModule[] = [
  createSellerRoute,
  listSellersRoute,
  retrieveSellerRoute,
  updateSellerRoute,
  eraseSellerRoute,
  putStorefrontRoute,
  suspendSellerRoute,
  unsuspendSellerRoute,
];

export const sellerPublicRoutes: RouteModule[] = [retrieveSellerProfileRoute];
