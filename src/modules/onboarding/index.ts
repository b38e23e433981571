// The onboarding module's public surface: its side of the simulated processor's onboarding page,
// which the composition root hands to the page. Other modules reach it only through the hooks its
// manifest (module.ts) declares and the composition root wires (docs/architecture.md, Import rules).
export { onboardingPageSide } from './page-side.js';
export type { EnablePayouts } from './page-side.js';
