// The verifications module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { VERIFICATION_ID_PREFIXES, VERIFICATION_EVENT_TYPES } from './declarations.js';
import { verificationsErasure } from './erasure.js';
import { verificationRoutes } from './routes/index.js';

export const verificationsModule: ModuleManifest = {
  name: 'verifications',
  tables: ['verifications'],
  idPrefixes: VERIFICATION_ID_PREFIXES,
  eventTypes: VERIFICATION_EVENT_TYPES,
  routes: { secret: verificationRoutes },
  erasure: { participant: verificationsErasure },
  tags: [{ name: 'Verifications', description: 'Seller verification: start, approve or reject.', rank: 70 }],
};
