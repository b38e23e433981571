// The dashboard module's manifest (src/contracts/wiring.ts): its session routes under /manage/v1,
// the built single-page app, and the purge of ended credentials.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { DASHBOARD_ERROR_CODES, DASHBOARD_ID_PREFIXES } from './declarations.js';
import { purgeDashboardCredentialsJob } from './credential-purge.js';
import { dashboardPageRoutes } from './pages.js';
import { dashboardPublicRoutes, dashboardSessionRoutes } from './routes/index.js';

export const dashboardModule: ModuleManifest = {
  name: 'dashboard',
  tables: ['dashboard_sessions', 'password_resets'],
  idPrefixes: DASHBOARD_ID_PREFIXES,
  routes: { managePublic: dashboardPublicRoutes, manageSession: dashboardSessionRoutes, root: [dashboardPageRoutes] },
  periodic: [purgeDashboardCredentialsJob],
  errorCodes: DASHBOARD_ERROR_CODES,
};
