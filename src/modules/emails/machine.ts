// The email state machine as one table (docs/state-machines.md): an email is queued in the
// transaction of the change that causes it, and its email.send job (sender.ts) moves it. The job
// reads the table before it sends, and the SQL that records an attempt moves only from the states
// the table names. A failed attempt leaves the email queued until the last one (MAX_ATTEMPTS); its
// retries are the job's backoff, not a timer of the table. Emails emit no events: the outbox is
// read in the dashboard (GET /manage/v1/emails).
import { defineMachine } from '../../domain/state-machine.js';

export const EMAIL_STATES = ['queued', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATES)[number];

export const EMAIL_MACHINE = defineMachine({
  subject: 'email',
  states: EMAIL_STATES,
  initial: ['queued'],
  operations: { send: 'be sent', retry: 'be retried', fail: 'fail' },
  rows: [
    { from: ['queued'], operation: 'send', who: ['platform'], to: 'sent', emits: [] },
    { from: ['queued'], operation: 'retry', who: ['platform'], to: 'queued', emits: [] },
    { from: ['queued'], operation: 'fail', who: ['platform'], to: 'failed', emits: [] },
  ],
});

export type EmailOperation = keyof typeof EMAIL_MACHINE.operations;
