// The payment, release and refund state machines as tables (docs/payments.md, contract 10).
// Operations, processor reports, timers, the docs' diagrams and the tests read them; nothing else
// decides whether a payment, its release or a refund may move.
import { defineMachine } from '../../domain/state-machine.js';

export const PAYMENT_STATES = ['awaiting_payment', 'succeeded', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATES)[number];

export const PAYMENT_MACHINE = defineMachine({
  subject: 'payment',
  states: PAYMENT_STATES,
  initial: ['awaiting_payment'],
  operations: {
    succeed: 'succeed',
    fail: 'fail',
    cancel: 'be canceled',
  },
  rows: [
    { from: ['awaiting_payment'], operation: 'succeed', who: ['processor'], to: 'succeeded', emits: ['payment.succeeded'] },
    // A payment that arrives after its order lapsed: recorded, then refunded in full (late_payment).
    { from: ['canceled'], operation: 'succeed', who: ['processor'], to: 'succeeded', emits: ['payment.succeeded'] },
    // A failed attempt leaves the payment due: the buyer may try again until the payment window ends.
    { from: ['awaiting_payment'], operation: 'fail', who: ['processor'], to: 'awaiting_payment', emits: ['payment.failed'] },
    { from: ['awaiting_payment'], operation: 'cancel', who: ['platform', 'timer'], to: 'canceled', emits: ['payment.canceled'] },
  ],
});

/** Release status; `none` stands for null (the buyer has not paid). */
export const RELEASE_STATES = ['none', 'held', 'releasing', 'released', 'failed', 'nothing_to_release', 'in_balance'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];
export const RELEASE_TIMER = 'payment.release';

export const RELEASE_MACHINE = defineMachine({
  subject: 'release',
  states: RELEASE_STATES,
  initial: ['none'],
  describe: (state) => (state === 'none' ? 'not started (the payment has not succeeded)' : state),
  operations: {
    hold: 'be held',
    start: 'start',
    succeed: 'succeed',
    fail: 'fail',
    retry: 'be retried',
    recover: 'be kept in full for what the seller owes',
    settle_nothing: 'end with nothing to release',
    to_balance: "move to the seller's available balance",
  },
  timers: { [RELEASE_TIMER]: 'start' },
  rows: [
    { from: ['none'], operation: 'hold', who: ['processor'], to: 'held', emits: [] },
    // The order completed (plus release_delay_seconds): the transfer is asked for.
    { from: ['held'], operation: 'start', who: ['platform', 'timer'], to: 'releasing', emits: [], cancels: [RELEASE_TIMER] },
    { from: ['releasing'], operation: 'succeed', who: ['processor'], to: 'released', emits: ['payment.released'] },
    // Refused at once (no payouts), by the processor, or reported failed after it was made.
    { from: ['held', 'releasing', 'released'], operation: 'fail', who: ['processor', 'platform', 'timer'], to: 'failed', emits: ['payment.release_failed'], cancels: [RELEASE_TIMER] },
    // retry_release, or the seller's payouts became enabled.
    { from: ['failed'], operation: 'retry', who: ['platform', 'processor'], to: 'releasing', emits: [] },
    // A seller paid on a schedule (docs/payouts.md): the share becomes available after delay_days; a payout pays it.
    { from: ['held'], operation: 'to_balance', who: ['platform', 'timer'], to: 'in_balance', emits: [], cancels: [RELEASE_TIMER] },
    // What the seller owes (docs/ledger.md) takes the whole share: released with no transfer.
    { from: ['held', 'failed'], operation: 'recover', who: ['platform', 'timer', 'processor'], to: 'released', emits: ['payment.released'], cancels: [RELEASE_TIMER] },
    { from: ['none', 'held', 'failed'], operation: 'settle_nothing', who: ['platform', 'timer', 'processor'], to: 'nothing_to_release', emits: [], cancels: [RELEASE_TIMER] },
  ],
});

export const REFUND_STATES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type RefundStatus = (typeof REFUND_STATES)[number];

export const REFUND_MACHINE = defineMachine({
  subject: 'refund',
  states: REFUND_STATES,
  initial: ['pending', 'succeeded'],
  operations: { succeed: 'succeed', fail: 'fail', cancel: 'be canceled' },
  rows: [
    { from: ['pending'], operation: 'succeed', who: ['processor'], to: 'succeeded', emits: ['refund.updated', 'payment.refunded'] },
    // Card refunds can fail after succeeding (a closed card account): the money is back with the platform.
    { from: ['pending', 'succeeded'], operation: 'fail', who: ['processor'], to: 'failed', emits: ['refund.updated'] },
    { from: ['pending'], operation: 'cancel', who: ['processor'], to: 'canceled', emits: ['refund.updated'] },
  ],
});
