// The buyer routes (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { createBuyerRoute } from './create.js';
import { eraseBuyerRoute } from './erase.js';
import { listBuyersRoute } from './list.js';
import { retrieveBuyerRoute } from './retrieve.js';
import { updateBuyerRoute } from './update.js';

export const buyerRoutes: RouteModule[] = [createBuyerRoute, listBuyersRoute, retrieveBuyerRoute, updateBuyerRoute, eraseBuyerRoute];
