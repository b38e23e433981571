// The verifications module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { verificationsErasure } from './erasure.js';
import { verificationRoutes } from './routes/index.js';

export const verificationsModule: ModuleManifest = {
  name: 'verifications',
  tables: ['verifications'],
  routes: { secret: verificationRoutes },
  erasure: { participant: verificationsErasure },
  tags: [{ name: 'Verifications', description: 'Seller verification: start, approve or reject.', rank: 70 }],
};
