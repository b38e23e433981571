// What the service asks of a payment processor. One driver per provider (src/modules/drivers.ts
// picks it by the mode's processor connection). Today a driver starts seller onboarding; payments
// add charging, refunds and payouts to this interface.
import type { Provider } from '../marketplaces/schemas.js';

export interface OnboardingStart {
  /** The seller's account at the processor: the one they have, or a new one. */
  account: string;
  /** The processor's onboarding page for this link; the seller is sent there. */
  url: string;
}

export interface ProcessorDriver {
  readonly provider: Provider;
  /**
   * Starts a seller's onboarding through link `linkId`: the account to record for the seller
   * (`account` when they have one) and the page to send them to. A processor that cannot onboard
   * sellers refuses with a DomainError (403 processor_not_connected), before anything is written.
   */
  startOnboarding(input: { linkId: string; account: string | null; publicUrl: string }): OnboardingStart;
}
