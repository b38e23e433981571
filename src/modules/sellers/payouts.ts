// The seller's payouts state machine as one table (docs/architecture.md, "State machines"): the
// payment processor reports the state of the seller's account and the seller follows whatever it
// reports, from any state (an account can be restricted and enabled again). A report that changes
// nothing writes and emits nothing; one that changes the state or the account emits
// seller.payouts_updated. not_started is only where a seller begins.
import { defineMachine } from '../../domain/state-machine.js';
import type { PayoutsStatus } from './schemas.js';

const ANY = ['not_started', 'pending', 'enabled', 'restricted'] as const satisfies PayoutsStatus[];

export const PAYOUTS_MACHINE = defineMachine({
  subject: 'seller',
  states: ANY,
  initial: ['not_started'],
  describe: (state) => `${state} (payouts)`,
  operations: {
    report_pending: 'have its payouts reported pending',
    report_enabled: 'have its payouts reported enabled',
    report_restricted: 'have its payouts reported restricted',
  },
  rows: [
    { from: ANY, operation: 'report_pending', who: ['processor'], to: 'pending', emits: ['seller.payouts_updated'] },
    { from: ANY, operation: 'report_enabled', who: ['processor'], to: 'enabled', emits: ['seller.payouts_updated'] },
    { from: ANY, operation: 'report_restricted', who: ['processor'], to: 'restricted', emits: ['seller.payouts_updated'] },
  ],
});

/** A state the processor can report; the operation that follows it is `report_<state>`. */
export type ReportedPayoutsStatus = Exclude<PayoutsStatus, 'not_started'>;
