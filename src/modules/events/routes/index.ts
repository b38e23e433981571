// The event routes (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { listEventsRoute } from './list.js';
import { retrieveEventRoute } from './retrieve.js';

export const eventRoutes: RouteModule[] = [listEventsRoute, retrieveEventRoute];
