// The verification state machine as one table (docs/architecture.md, "State machines"): a
// verification starts pending and the platform approves (verified) or rejects it; a decision is
// final. The seller's own verification state follows it: src/modules/sellers/verification-state.ts.
import { defineMachine } from '../../domain/state-machine.js';
import type { VerificationStatus } from './schemas.js';

export const VERIFICATION_MACHINE = defineMachine({
  subject: 'verification',
  states: ['pending', 'verified', 'rejected'] satisfies VerificationStatus[],
  initial: ['pending'],
  operations: { approve: 'be approved', reject: 'be rejected' },
  rows: [
    { from: ['pending'], operation: 'approve', who: ['platform'], to: 'verified', emits: ['verification.updated'] },
    { from: ['pending'], operation: 'reject', who: ['platform'], to: 'rejected', emits: ['verification.updated'] },
  ],
});

export type VerificationDecision = keyof typeof VERIFICATION_MACHINE.operations;
