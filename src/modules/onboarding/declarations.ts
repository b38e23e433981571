// What the onboarding module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids. The `declare module`s make each kind a checked IdKind.


export const ONBOARDING_ID_PREFIXES = {
  onboardingLink: 'obl',
} as const;

type OnboardingIdPrefixes = typeof ONBOARDING_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends OnboardingIdPrefixes {}
}
