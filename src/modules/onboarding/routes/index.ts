// The onboarding routes: link creation (secret key) and the simulated processor's page (root).
import type { RouteModule } from '../../../http/types.js';
import { createOnboardingLinkRoute } from './create.js';

export { simulatedOnboardingPages } from './simulated-page.js';

export const onboardingRoutes: RouteModule = (app, services) => {
  createOnboardingLinkRoute(app, services);
};
