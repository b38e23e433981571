// The simulated processor (test mode), whole in this folder: its driver (driver.ts), its books
// (books.ts, the table it owns), and its hosted checkout and onboarding pages (checkout-page.ts,
// onboarding-page.ts, pages.ts). The composition root (src/app/wiring.ts) takes from here the
// driver, the hook its test helpers and pages use, and the pages' routes, handing them the
// payments and onboarding modules' sides.
import type { SimulatedProcessor } from '../../../contracts/processor.js';
import type { SimulatedPageSides } from '../../../contracts/simulated-pages.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { recordMovement, simulatedRecords } from './books.js';
import { simulatedCheckoutPages } from './checkout-page.js';
import { newSimulatedAccount } from './driver.js';
import { simulatedOnboardingPages } from './onboarding-page.js';

export { SIMULATED_PROCESSOR_TABLES } from './books.js';
export { simulatedProcessor } from './driver.js';

export const simulated: SimulatedProcessor = {
  newAccount: newSimulatedAccount,
  books: simulatedRecords,
  recordMovement,
};

/** The pages' routes (outside /v1: the token in the path is the credential), on the modules' sides. */
export function simulatedPageRoutes(sides: SimulatedPageSides): RouteModule[] {
  return [simulatedCheckoutPages(sides.checkout), simulatedOnboardingPages(sides.onboarding)];
}
