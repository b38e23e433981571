// The listing operations: list, retrieve and search accept publishable keys; the rest
// need a secret key. Each group registers in its own auth scope (src/app/routes.ts).
import type { RouteModule } from '../../../contracts/wiring.js';
import { bulkCreateListingsRoute } from './bulk-create.js';
import { createListingRoute } from './create.js';
import { listListingsRoute } from './list.js';
import { publishListingRoute } from './publish.js';
import { removeListingRoute } from './remove.js';
import { retrieveListingRoute } from './retrieve.js';
import { searchListingsRoute } from './search.js';
import { unpublishListingRoute } from './unpublish.js';
import { updateListingRoute } from './update.js';

/** PK operations: a publishable key sees published listings only. */
export const listingPublicRoutes: RouteModule[] = [listListingsRoute, retrieveListingRoute, searchListingsRoute];

export const listingRoutes: RouteModule[] = [
  createListingRoute,
  bulkCreateListingsRoute,
  updateListingRoute,
  publishListingRoute,
  unpublishListingRoute,
  removeListingRoute,
];
