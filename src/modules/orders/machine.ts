// The order state machine as one table (docs/orders.md, contract 9): for each operation, the
// states it may start from, who takes it, the state it leads to, its events and the window timers
// it sets or cancels. Operations, timer handlers, the tests and docs/orders.md's diagram read it;
// nothing else decides whether an order may move. Each window is its own timer kind with its own
// operation, so a stale timer of one window can never take another window's move.
import { defineMachine } from '../../domain/state-machine.js';

export const ORDER_STATES = ['awaiting_payment', 'committed', 'claimed', 'disputed', 'completed', 'cancelled', 'expired'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** States whose order holds units of its listing (contract 6: open orders). */
export const OPEN_ORDER_STATES: readonly OrderState[] = ['awaiting_payment', 'committed', 'claimed', 'disputed'];

export const PAYMENT_WINDOW_TIMER = 'order.payment_window';
export const CLAIM_WINDOW_TIMER = 'order.claim_window';
export const CONFIRM_WINDOW_TIMER = 'order.confirm_window';

const WINDOWS = [PAYMENT_WINDOW_TIMER, CLAIM_WINDOW_TIMER, CONFIRM_WINDOW_TIMER] as const;

export const ORDER_MACHINE = defineMachine({
  subject: 'order',
  states: ORDER_STATES,
  initial: ['awaiting_payment', 'committed'],
  operations: {
    pay: 'be paid',
    expire_unpaid: 'expire unpaid',
    cancel: 'be cancelled',
    claim: 'be claimed',
    expire_unclaimed: 'expire unclaimed',
    propose_cancellation: 'have a cancellation proposed',
    accept_cancellation: 'have a cancellation accepted',
    decline_cancellation: 'have a cancellation declined',
    confirm: 'be confirmed',
    dispute: 'be disputed',
    decide_for_seller: 'be decided for the seller',
    decide_for_buyer: 'be decided for the buyer',
  },
  timers: {
    [PAYMENT_WINDOW_TIMER]: 'expire_unpaid',
    [CLAIM_WINDOW_TIMER]: 'expire_unclaimed',
    [CONFIRM_WINDOW_TIMER]: 'confirm',
  },
  rows: [
    { from: ['awaiting_payment'], operation: 'pay', who: ['processor'], to: 'committed', emits: ['order.committed'], cancels: [PAYMENT_WINDOW_TIMER], sets: [CLAIM_WINDOW_TIMER] },
    { from: ['awaiting_payment'], operation: 'expire_unpaid', who: ['timer'], to: 'expired', emits: ['order.expired'] },
    { from: ['awaiting_payment'], operation: 'cancel', who: ['platform', 'either_party'], to: 'cancelled', emits: ['order.cancelled'], cancels: [PAYMENT_WINDOW_TIMER] },
    { from: ['committed', 'claimed'], operation: 'cancel', who: ['platform'], to: 'cancelled', emits: ['order.cancelled'], cancels: [...WINDOWS] },
    { from: ['committed'], operation: 'claim', who: ['seller'], to: 'claimed', emits: ['order.claimed'], cancels: [CLAIM_WINDOW_TIMER], sets: [CONFIRM_WINDOW_TIMER] },
    { from: ['committed'], operation: 'expire_unclaimed', who: ['timer'], to: 'expired', emits: ['order.expired'] },
    { from: ['committed'], operation: 'propose_cancellation', who: ['either_party'], to: 'committed', emits: ['order.cancellation_proposed'] },
    { from: ['claimed'], operation: 'propose_cancellation', who: ['either_party'], to: 'claimed', emits: ['order.cancellation_proposed'] },
    { from: ['committed', 'claimed'], operation: 'accept_cancellation', who: ['other_party'], to: 'cancelled', emits: ['order.cancelled'], cancels: [...WINDOWS] },
    { from: ['committed'], operation: 'decline_cancellation', who: ['other_party'], to: 'committed', emits: ['order.cancellation_declined'] },
    { from: ['claimed'], operation: 'decline_cancellation', who: ['other_party'], to: 'claimed', emits: ['order.cancellation_declined'] },
    { from: ['claimed'], operation: 'confirm', who: ['buyer', 'timer'], to: 'completed', emits: ['order.completed'], cancels: [CONFIRM_WINDOW_TIMER] },
    { from: ['committed', 'claimed', 'completed'], operation: 'dispute', who: ['buyer'], to: 'disputed', emits: ['order.disputed'], cancels: [...WINDOWS] },
    { from: ['disputed'], operation: 'decide_for_seller', who: ['platform'], to: 'completed', emits: ['order.completed'] },
    { from: ['disputed'], operation: 'decide_for_buyer', who: ['platform'], to: 'cancelled', emits: ['order.cancelled'] },
  ],
});

export type OrderOperation = keyof typeof ORDER_MACHINE.operations;
export type OrderTimer = keyof typeof ORDER_MACHINE.timers;

/** The window timer a state waits on, by the setting that sizes it; the order's deadline is its time. */
export const STATE_WINDOW: Partial<Record<OrderState, { timer: OrderTimer; setting: 'payment_window_seconds' | 'claim_window_seconds' | 'confirm_window_seconds' }>> = {
  awaiting_payment: { timer: PAYMENT_WINDOW_TIMER, setting: 'payment_window_seconds' },
  committed: { timer: CLAIM_WINDOW_TIMER, setting: 'claim_window_seconds' },
  claimed: { timer: CONFIRM_WINDOW_TIMER, setting: 'confirm_window_seconds' },
};
