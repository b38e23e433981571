// The payouts module's routes (secret key): schedules, payouts, and the simulated processor's test helper.
import type { RouteModule } from '../../../contracts/wiring.js';
import { payoutScheduleRoutes } from './payout-schedule.js';
import { payoutRoutes } from './payouts.js';
import { payoutTestHelperRoutes } from './test-helpers.js';

export const payoutApiRoutes: RouteModule[] = [payoutScheduleRoutes, payoutRoutes, payoutTestHelperRoutes];
