// The request's side of processor calls: right after the COMMIT that asked for them (and before
// the answer), run the due calls of the payments it touched, in this process, so the simulated
// processor settles at once and a Stripe checkout URL exists by the time the order's answer
// arrives. Only those payments' calls: a backlog elsewhere never slows this request. The enqueue
// also woke the workers, and one of them may claim a call first (in this process or another): then
// the request waits for it (up to CALL_WAIT_MS), so its answer holds the page either way. A call
// this misses (the process stops, the processor is slower than that) is the worker's.
import type { Tx } from '../../db/db.js';
import { runDueJobs } from '../../workers/engine.js';
import type { Deps } from '../../contracts/deps.js';
import { jobsUnderWay } from '../../workers/job-queue.js';
import { LEAVE_TO_WORKER, PROCESSOR_CALL_JOB, type CallKick } from './call-queue.js';
import { processorCallJob } from './calls.js';

/** How long a request waits for its payments' calls that a worker claimed first. */
const CALL_WAIT_MS = 5_000;
const POLL_MS = 20;

/** A kick for the services of one request (none: the calls are left to the worker). */
export function kickFor(deps: Deps | null): CallKick {
  return deps === null ? LEAVE_TO_WORKER : processorCallsAfterCommit(deps);
}

/**
 * What a request (a flow run with its services) gives the payments it changes: the processor
 * calls they ask for are made right after the transaction's COMMIT, before the request answers.
 */
export function processorCallsAfterCommit(deps: Deps): CallKick {
  // The payments each transaction asked for, so one transaction runs one batch after its COMMIT.
  const pending = new WeakMap<Tx, Set<string>>();
  return (tx, paymentId) => {
    let keys = pending.get(tx);
    if (!keys) {
      keys = new Set();
      pending.set(tx, keys);
      const chosen = keys;
      tx.afterCommit(async () => {
        const paymentIds = [...chosen];
        const runOurs = async () => (await runDueJobs(deps, processorCallJob, { max: 20, onlyKeys: paymentIds })).length > 0;
        if (await runOurs()) return;
        const deadline = Date.now() + CALL_WAIT_MS;
        while (Date.now() < deadline && (await jobsUnderWay(deps.db, PROCESSOR_CALL_JOB, paymentIds))) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          if (await runOurs()) return;
        }
      });
    }
    keys.add(paymentId);
  };
}
