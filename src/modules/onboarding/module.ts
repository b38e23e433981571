// The onboarding module's manifest (src/contracts/wiring.ts): onboarding links.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { ONBOARDING_ID_PREFIXES } from './declarations.js';
import { onboardingErasure } from './erasure.js';
import { onboardingRoutes } from './routes/index.js';

export const onboardingModule: ModuleManifest = {
  name: 'onboarding',
  tables: ['onboarding_links'],
  idPrefixes: ONBOARDING_ID_PREFIXES,
  routes: { secret: onboardingRoutes },
  erasure: { participant: onboardingErasure },
};
