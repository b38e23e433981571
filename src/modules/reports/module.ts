// The reports module's manifest (src/contracts/wiring.ts): the report operations, the local
// store's report file links, and the build job.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { reportBuildJob } from './job.js';
import { reportFilePageRoutes, reportRoutes } from './routes/index.js';

export const reportsModule: ModuleManifest = {
  name: 'reports',
  tables: ['reports'],
  routes: { secret: reportRoutes, root: reportFilePageRoutes },
  jobKinds: [reportBuildJob],
};
