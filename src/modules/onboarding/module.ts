// The onboarding module's manifest (src/contracts/wiring.ts): onboarding links, and the simulated
// processor's onboarding page.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { onboardingErasure } from './erasure.js';
import { onboardingPageRoutes, onboardingRoutes } from './routes/index.js';

export const onboardingModule: ModuleManifest = {
  name: 'onboarding',
  routes: { secret: onboardingRoutes, root: onboardingPageRoutes },
  erasure: { participant: onboardingErasure },
};
