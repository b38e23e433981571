// The reputation operations (secret key).
import type { RouteModule } from '../../../http/types.js';
import { listReputationEventsRoute } from './list.js';

export const reputationRoutes: RouteModule[] = [listReputationEventsRoute];
