// The background work each module registers, beside the route table (index.ts): timer kinds
// (database-only work at a time of a mode's clock), job kinds (work that talks to the network)
// and periodic jobs. src/workers/ holds the machinery that runs them. Adding one is one line.
import { purgeIdempotencyKeys } from '../http/idempotency.js';
import type { BackgroundWork, ClockAdvanceHook, PeriodicJob, WorkerComponent, WorkStatsSource } from '../workers/registry.js';
import type { TimerHandlers } from '../workers/timers.js';
import type { JobKind } from '../workers/job-kinds.js';
import { notifyJobs } from '../workers/wake.js';
import { emailSendJob } from '../modules/emails/sender.js';
import { expireListingTimer, LISTING_EXPIRE_TIMER } from '../modules/listings/operations.js';
import { pruneWebhookDeliveriesJob, startDueWebhookAttempts, webhookDeliveryWorkStats, webhookDispatcherComponent } from '../modules/webhooks/module.js';
import { DISPUTE_DECISION_TIMER, disputeDecisionTimer } from '../modules/orders/disputes.js';
import {
  CLAIM_WINDOW_TIMER,
  CONFIRM_WINDOW_TIMER,
  confirmOrderTimer,
  expireUnclaimedOrderTimer,
  expireUnpaidOrderTimer,
  PAYMENT_WINDOW_TIMER,
} from '../modules/orders/operations.js';
import { REVIEW_WINDOW_TIMER, reviewWindowTimer } from '../modules/reviews/operations.js';
import { expireMediaUploadTimer } from '../modules/media/operations.js';
import { mediaFileDeleteJob } from '../modules/media/removal.js';
import { MEDIA_UPLOAD_EXPIRE_TIMER } from '../modules/media/status.js';
import { processorCallJob } from '../modules/payments/calls.js';
import { RELEASE_TIMER, releaseTimer } from '../modules/payments/operations.js';
import { runDueJobs } from '../workers/engine.js';
import { purgeDashboardCredentialsJob } from '../modules/dashboard/credential-purge.js';

export const timerHandlers: TimerHandlers = {
  [LISTING_EXPIRE_TIMER]: expireListingTimer,
  [PAYMENT_WINDOW_TIMER]: expireUnpaidOrderTimer,
  [CLAIM_WINDOW_TIMER]: expireUnclaimedOrderTimer,
  [CONFIRM_WINDOW_TIMER]: confirmOrderTimer,
  [DISPUTE_DECISION_TIMER]: disputeDecisionTimer,
  [REVIEW_WINDOW_TIMER]: reviewWindowTimer,
  [MEDIA_UPLOAD_EXPIRE_TIMER]: expireMediaUploadTimer,
  [RELEASE_TIMER]: releaseTimer,
};

export const jobKinds: JobKind[] = [emailSendJob, mediaFileDeleteJob, processorCallJob];

export const periodicJobs: PeriodicJob[] = [
  {
    name: 'purge_idempotency_keys',
    everyMs: 60 * 60 * 1000,
    run: (services) => purgeIdempotencyKeys(services.db, services.clock.nowMs()),
  },
  pruneWebhookDeliveriesJob,
  purgeDashboardCredentialsJob,
];

/** Loops of their own that the worker starts and stops (the webhook dispatcher claims delivery rows). */
export const workerComponents: WorkerComponent[] = [webhookDispatcherComponent];

/** Work kept in modules' own rows, reported by GET /metrics beside jobs and timers. */
export const workStatsSources: WorkStatsSource[] = [webhookDeliveryWorkStats];

/** Run after a test-clock advance, before its answer (see test-helpers/clock.ts). */
export const clockAdvanceHooks: ClockAdvanceHook[] = [
  // Jobs on the mode's clock (webhook retries) that the advance made due start at once, in every
  // worker process, instead of at their next poll.
  { name: 'wake_jobs', run: (services) => notifyJobs(services.db, '') },
  startDueWebhookAttempts,
  // Processor calls the advance's timers asked for (the refund of an expired order, a release after
  // its delay) are made before the answer, so the simulated processor has settled them by then.
  { name: 'processor_calls', run: async (services) => void (await runDueJobs(services, processorCallJob, { max: 100 })) },
];

export const backgroundWork: BackgroundWork = { timers: timerHandlers, jobKinds, periodic: periodicJobs, clockAdvanceHooks, components: workerComponents };
