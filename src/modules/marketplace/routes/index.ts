// The marketplace route (secret key).
import type { RouteModule } from '../../../http/types.js';
import { retrieveMarketplaceRoute } from './retrieve.js';

export const marketplaceRoutes: RouteModule[] = [retrieveMarketplaceRoute];
