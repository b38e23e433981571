// The seller's suspension state machine as one table (docs/architecture.md, "State machines"):
// active ⇄ suspended, moved by the platform; each move emits its event (and, in the operation,
// records a moderation action). A suspended seller cannot publish or take orders.
import { defineMachine } from '../../domain/state-machine.js';
import type { SellerStatus } from './schemas.js';

export const SUSPENSION_MACHINE = defineMachine({
  subject: 'seller',
  states: ['active', 'suspended'] satisfies SellerStatus[],
  initial: ['active'],
  operations: { suspend: 'be suspended', unsuspend: 'be unsuspended' },
  rows: [
    { from: ['active'], operation: 'suspend', who: ['platform'], to: 'suspended', emits: ['seller.suspended'] },
    { from: ['suspended'], operation: 'unsuspend', who: ['platform'], to: 'active', emits: ['seller.unsuspended'] },
  ],
});

export type SuspensionOperation = keyof typeof SUSPENSION_MACHINE.operations;
