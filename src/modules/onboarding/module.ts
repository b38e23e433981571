// The onboarding module's manifest (src/contracts/wiring.ts): onboarding links.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { onboardingErasure } from './erasure.js';
import { onboardingRoutes } from './routes/index.js';

export const onboardingModule: ModuleManifest = {
  name: 'onboarding',
  tables: ['onboarding_links'],
  routes: { secret: onboardingRoutes },
  erasure: { participant: onboardingErasure },
};
