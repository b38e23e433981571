// Seller erasure, for onboarding: the return and refresh URLs of the seller's links
// may carry the seller's data, so the links go.
import type { ErasureParticipant } from '../../contracts/erasure.js';
import { deleteOnboardingLinksOfSeller } from './queries.js';

export const onboardingErasure: ErasureParticipant = {
  name: 'onboarding links',
  eraseSeller: (tx, scope, sellerId) => deleteOnboardingLinksOfSeller(tx, scope, sellerId),
};
