// Work the worker does on a schedule rather than at a timer's time, and the hooks a test-clock
// advance runs. Adding either is one line in its list.
import type { Services } from '../http/types.js';
import { purgeIdempotencyKeys } from '../http/idempotency.js';
import { sendQueuedEmails } from '../modules/emails/sender.js';
import type { Scope } from '../scope.js';

export interface PeriodicJob {
  name: string;
  /** How often to run it when it finds nothing to do. */
  everyMs: number;
  /**
   * Does one round of work. Returning a count above 0 says there may be more: the job runs again
   * on the worker's next pass instead of waiting everyMs, so a backlog drains at full speed.
   */
  run(services: Services): Promise<number | void>;
}

export const periodicJobs: PeriodicJob[] = [
  {
    name: 'purge_idempotency_keys',
    everyMs: 60 * 60 * 1000,
    run: (services) => purgeIdempotencyKeys(services.db, services.clock.nowMs()),
  },
  {
    // Without SMTP_URL it returns at once and the emails stay in the outbox.
    name: 'send_queued_emails',
    everyMs: 1000,
    run: async ({ db, clock, config }) => {
      const report = await sendQueuedEmails(db, clock, config);
      return report.sent + report.retrying + report.failed;
    },
  },
];

/**
 * Runs after a test-clock advance, once the mode's due timers have run and before the answer.
 * Hooks start work that the worker would pick up on its own anyway, only later (webhook attempts
 * that became due, say), so a hook that fails is logged and the advance still answers.
 */
export interface ClockAdvanceHook {
  name: string;
  run(services: Services, scope: Scope, now: Date): Promise<void>;
}

export const clockAdvanceHooks: ClockAdvanceHook[] = [];
