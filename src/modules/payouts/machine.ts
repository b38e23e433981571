// The payout state machine as one table (docs/state-machines.md, docs/payouts.md). A payout is
// written pending with its idempotency key; its job moves it in_transit just before calling the
// processor (after that it can no longer be canceled), then paid or failed by the outcome. The
// processor (or the simulated processor's test helper) may report a paid payout failed later.
import { defineMachine } from '../../domain/state-machine.js';

export const PAYOUT_STATES = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATES)[number];

export const PAYOUT_MACHINE = defineMachine({
  subject: 'payout',
  states: PAYOUT_STATES,
  initial: ['pending'],
  operations: { send: 'be sent', succeed: 'succeed', fail: 'fail', cancel: 'be canceled' },
  rows: [
    { from: ['pending'], operation: 'send', who: ['platform'], to: 'in_transit', emits: [] },
    { from: ['in_transit'], operation: 'succeed', who: ['processor'], to: 'paid', emits: ['payout.paid'] },
    // Refused by the processor (or out of attempts), or reported failed after it was paid: the amount returns to available.
    { from: ['pending', 'in_transit', 'paid'], operation: 'fail', who: ['processor', 'platform'], to: 'failed', emits: ['payout.failed'] },
    { from: ['pending'], operation: 'cancel', who: ['platform'], to: 'canceled', emits: ['payout.canceled'] },
  ],
});
