// The simulated processor (test mode): accounts are made up here, and its onboarding page is
// served by this service (src/modules/onboarding/routes/simulated-page.ts), where the seller
// completes onboarding with one button.
import { randomBase62 } from '../../ids.js';
import type { ProcessorDriver } from './driver.js';

export const simulatedOnboardingPath = (linkId: string) => `/simulated/onboarding/${linkId}`;

export const newSimulatedAccount = () => `acct_sim_${randomBase62(16)}`;

export const simulatedProcessor: ProcessorDriver = {
  provider: 'simulated',
  startOnboarding: ({ linkId, account, publicUrl }) => ({
    account: account ?? newSimulatedAccount(),
    url: `${publicUrl}${simulatedOnboardingPath(linkId)}`,
  }),
};
