// The event routes (secret key): the stored events and the catalog of their types.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listEventsRoute } from './list.js';
import { listEventTypesRoute } from './list-types.js';
import { retrieveEventRoute } from './retrieve.js';
import { retrieveEventTypeRoute } from './retrieve-type.js';

export const eventRoutes: RouteModule[] = [listEventsRoute, retrieveEventRoute, listEventTypesRoute, retrieveEventTypeRoute];
