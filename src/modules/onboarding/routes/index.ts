// The onboarding routes: link creation (secret key) and the simulated processor's page (root).
import type { RouteModule } from '../../../contracts/wiring.js';
import { createOnboardingLinkRoute } from './create.js';
import { simulatedOnboardingPages } from './simulated-page.js';

export const onboardingRoutes: RouteModule[] = [createOnboardingLinkRoute];

/** Outside /v1: the simulated processor's onboarding page. */
export const onboardingPageRoutes: RouteModule[] = [simulatedOnboardingPages];
