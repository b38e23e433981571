// Stripe Connect. It arrives with payments: until then a Stripe connection can be saved (the
// management API checks its keys' shapes) but cannot onboard sellers, and says so.
import { errors } from '../../errors.js';
import type { ProcessorDriver } from './driver.js';

export const stripeProcessor: ProcessorDriver = {
  provider: 'stripe',
  startOnboarding() {
    throw errors.forbidden(
      'processor_not_connected',
      'Seller onboarding through the Stripe connection is not available in this version; use the simulated processor in test mode.',
    );
  },
};
