// The reports module's manifest (src/contracts/wiring.ts): the report operations, the local
// store's report file links, and the build job.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { REPORT_ID_PREFIXES, REPORT_EVENT_TYPES } from './declarations.js';
import { reportBuildJob } from './job.js';
import { reportFilePageRoutes, reportRoutes } from './routes/index.js';

export const reportsModule: ModuleManifest = {
  name: 'reports',
  tables: ['reports'],
  idPrefixes: REPORT_ID_PREFIXES,
  eventTypes: REPORT_EVENT_TYPES,
  routes: { secret: reportRoutes, root: reportFilePageRoutes },
  jobKinds: [reportBuildJob],
  tags: [{ name: 'Reports', description: 'CSV reports built from the ledger in the background (seller statements, platform fees, balance summaries, reconciliation with the processor), downloaded through signed links (docs/ledger.md).', rank: 170 }],
};
