// The ledger module's manifest (src/contracts/wiring.ts): its routes and its invariants job.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { ledgerRoutes } from './routes/index.js';

export const ledgerModule: ModuleManifest = {
  name: 'ledger',
  routes: { secret: ledgerRoutes },
};
