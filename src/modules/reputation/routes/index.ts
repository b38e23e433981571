// The reputation operations (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { listReputationEventsRoute } from './list.js';

export const reputationRoutes: RouteModule[] = [listReputationEventsRoute];
