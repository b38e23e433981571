// The dispute state machine (contract 12): open until the platform decides it. Evidence is added
// while open; the decision-due timer marks an undecided dispute overdue once, leaving it open.
import { defineMachine } from '../../domain/state-machine.js';

export const DISPUTE_STATUSES = ['open', 'decided'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTE_DECISION_TIMER = 'dispute.decision_due';

export const DISPUTE_MACHINE = defineMachine({
  subject: 'dispute',
  states: DISPUTE_STATUSES,
  initial: ['open'],
  operations: {
    add_evidence: 'take evidence',
    mark_overdue: 'become overdue',
    decide: 'be decided',
  },
  timers: { [DISPUTE_DECISION_TIMER]: 'mark_overdue' },
  rows: [
    { from: ['open'], operation: 'add_evidence', who: ['either_party'], to: 'open', emits: ['dispute.evidence_added'] },
    { from: ['open'], operation: 'mark_overdue', who: ['timer'], to: 'open', emits: ['dispute.decision_overdue'] },
    { from: ['open'], operation: 'decide', who: ['platform'], to: 'decided', emits: ['dispute.updated', 'dispute.decided'], cancels: [DISPUTE_DECISION_TIMER] },
  ],
});
