// The checkout operations (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { listCheckoutsRoute } from './list.js';
import { retrieveCheckoutRoute } from './retrieve.js';

export const checkoutRoutes: RouteModule[] = [listCheckoutsRoute, retrieveCheckoutRoute];
