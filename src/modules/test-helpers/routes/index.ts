// The test helper routes (secret key, test mode only).
import type { RouteModule } from '../../../contracts/wiring.js';
import { advanceTestClockRoute } from './advance-clock.js';
import { retrieveTestClockRoute } from './retrieve-clock.js';

export const testHelperRoutes: RouteModule[] = [retrieveTestClockRoute, advanceTestClockRoute];
