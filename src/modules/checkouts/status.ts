// The checkout's status as one table (docs/architecture.md, "State machines"). A checkout is made
// `awaiting_payment` (payments on) or `completed` (payments off: its orders are committed at once);
// afterwards its status only follows its orders, moved by the checkouts module's event subscriber
// (follow-orders.ts) as the platform: completed once every order is paid, expired once every order
// expired unpaid, cancelled once every order is cancelled.
import { defineMachine } from '../../domain/state-machine.js';

export const CHECKOUT_STATUSES = ['awaiting_payment', 'completed', 'expired', 'cancelled'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const CHECKOUT_MACHINE = defineMachine({
  subject: 'checkout',
  states: CHECKOUT_STATUSES,
  initial: ['awaiting_payment', 'completed'],
  operations: { complete: 'complete', expire: 'expire', cancel: 'be cancelled' },
  rows: [
    { from: ['awaiting_payment'], operation: 'complete', who: ['platform'], to: 'completed', emits: ['checkout.completed'] },
    { from: ['awaiting_payment'], operation: 'expire', who: ['platform'], to: 'expired', emits: ['checkout.expired'] },
    { from: ['awaiting_payment', 'completed'], operation: 'cancel', who: ['platform'], to: 'cancelled', emits: ['checkout.cancelled'] },
  ],
});

export type CheckoutOperation = keyof typeof CHECKOUT_MACHINE.operations;
