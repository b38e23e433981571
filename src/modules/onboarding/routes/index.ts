// The onboarding routes: link creation (secret key). The simulated processor's onboarding page is
// the processor's (src/adapters/processors/simulated/), on this module's side (page-side.ts).
import type { RouteModule } from '../../../contracts/wiring.js';
import { createOnboardingLinkRoute } from './create.js';

export const onboardingRoutes: RouteModule[] = [createOnboardingLinkRoute];
