// The request's side of processor calls: right after the COMMIT that asked for them (and before
// the answer), run the due calls of the payments it touched, in this process, so the simulated
// processor settles at once and a Stripe checkout URL exists by the time the order's answer
// arrives. Only those payments' calls: a backlog elsewhere never slows this request. A call this
// misses (the process stops, the processor is slow, another process holds the payment's call) is
// the worker's, which the enqueue also woke.
import type { Tx } from '../../db/db.js';
import { runDueJobs } from '../../workers/engine.js';
import type { Deps } from '../../contracts/deps.js';
import type { CallKick } from './call-queue.js';
import { processorCallJob } from './calls.js';

/** A kick for the services of one request (null: leave the calls to the worker). */
export function kickFor(deps: Deps | null): CallKick {
  if (deps === null) return null;
  // The payments each transaction asked for, so one transaction runs one batch after its COMMIT.
  const pending = new WeakMap<Tx, Set<string>>();
  return (tx, paymentId) => {
    let keys = pending.get(tx);
    if (!keys) {
      keys = new Set();
      pending.set(tx, keys);
      const chosen = keys;
      tx.afterCommit(async () => {
        await runDueJobs(deps, processorCallJob, { max: 20, onlyKeys: [...chosen] });
      });
    }
    keys.add(paymentId);
  };
}
