// The flag state machine as one table (docs/architecture.md, "State machines"): a flag starts
// open and the platform resolves it, by dismissing it or by a moderation action (which resolves
// every open flag of the same target at once). Resolution is final.
import { defineMachine } from '../../domain/state-machine.js';

export const FLAG_STATUSES = ['open', 'resolved'] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

export const FLAG_MACHINE = defineMachine({
  subject: 'flag',
  states: FLAG_STATUSES,
  initial: ['open'],
  operations: { resolve: 'be resolved' },
  rows: [{ from: ['open'], operation: 'resolve', who: ['platform'], to: 'resolved', emits: ['flag.resolved'] }],
});
