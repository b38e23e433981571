// The request's side of processor calls: right after the COMMIT that asked for them (and before
// the answer), run the due calls in this process, so the simulated processor settles at once and
// a Stripe checkout URL exists by the time the order's answer arrives. A call this misses (the
// process stops, the processor is slow) is the worker's, which the enqueue also woke.
import type { Tx } from '../../db/db.js';
import { runDueJobs } from '../../workers/engine.js';
import type { JobDeps } from '../../workers/job-kinds.js';
import type { CallKick } from './call-queue.js';
import { processorCallJob } from './calls.js';

const kicked = new WeakSet<Tx>();

export function kickFor(deps: JobDeps | null): CallKick {
  if (deps === null) return null;
  return (tx) => {
    if (kicked.has(tx)) return;
    kicked.add(tx);
    tx.afterCommit(async () => {
      await runDueJobs(deps, processorCallJob, { max: 20 });
    });
  };
}
