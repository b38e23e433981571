// The seller's verification state as one table (docs/architecture.md, "State machines"). Starting
// a verification makes the seller pending; the verification's decision makes it verified or
// rejected. A seller with a pending verification, or a verified one, cannot start another (asking
// again must not take away a verified seller's right to publish while it is pending); a rejected
// seller may try again.
import { defineMachine } from '../../domain/state-machine.js';
import type { VerificationState } from './schemas.js';

export const SELLER_VERIFICATION_MACHINE = defineMachine({
  subject: 'seller',
  states: ['unverified', 'pending', 'verified', 'rejected'] satisfies VerificationState[],
  initial: ['unverified'],
  describe: (state) => `${state} (verification)`,
  operations: {
    start: 'start a verification',
    approve: 'have a verification approved',
    reject: 'have a verification rejected',
  },
  rows: [
    { from: ['unverified', 'rejected'], operation: 'start', who: ['platform'], to: 'pending', emits: ['seller.verification_updated'] },
    { from: ['pending'], operation: 'approve', who: ['platform'], to: 'verified', emits: ['seller.verification_updated'] },
    { from: ['pending'], operation: 'reject', who: ['platform'], to: 'rejected', emits: ['seller.verification_updated'] },
  ],
});
