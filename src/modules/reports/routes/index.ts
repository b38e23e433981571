// The report routes: secret-key operations, and the local store's file links outside /v1.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createReportRoute } from './create.js';
import { reportFileRoute } from './file.js';
import { listReportsRoute } from './list.js';
import { retrieveReportRoute } from './retrieve.js';

export const reportRoutes: RouteModule[] = [createReportRoute, listReportsRoute, retrieveReportRoute];

export const reportFilePageRoutes: RouteModule[] = [reportFileRoute];
