// Processor calls are jobs (src/workers/): recorded in the transaction of the change that needs
// them, made by calls.ts with no transaction open, their outcome recorded after. The calls of one
// payment run one at a time, in the order they were asked for (the payment is the concurrency key),
// so a refund's reversal never overtakes the transfer it reverses.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { enqueueJob } from '../../workers/job-queue.js';

export const PROCESSOR_CALL_JOB = 'payment.processor_call';

export type ProcessorCall =
  | { call: 'start'; description: string; successUrl: string | null; cancelUrl: string | null }
  | { call: 'cancel' }
  | { call: 'transfer' }
  | { call: 'refund'; refundId: string };

/**
 * How the change's caller makes the call soon: a request runs the due calls right after its
 * COMMIT and before it answers (processorCallsAfterCommit, kick.ts: so a checkout URL is there
 * when the order's answer is); a timer or a worker leaves them to the worker (LEAVE_TO_WORKER),
 * which the enqueue wakes at once.
 */
export type CallKick = (tx: Tx, paymentId: string) => void;

/** The calls are the worker's: the enqueue woke it, nothing more to do in this process. */
export const LEAVE_TO_WORKER: CallKick = () => undefined;

export async function enqueueCall(tx: Tx, scope: Scope, paymentId: string, call: ProcessorCall, now: Date, kick: CallKick): Promise<void> {
  await enqueueJob(tx, { name: PROCESSOR_CALL_JOB, clock: 'mode' }, { owner: scope, runAt: now, subjectId: paymentId, concurrencyKey: paymentId, payload: call });
  kick(tx, paymentId);
}
