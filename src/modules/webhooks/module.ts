// The webhooks module's manifest (src/contracts/wiring.ts): endpoints and deliveries, the fan-out
// written with every event, the dispatcher as a component of the worker, the retention job, the
// test clock's hook, and the figures of GET /metrics.
import type { ClockAdvanceHook, CounterSource, PeriodicJob, WorkerComponent, WorkStatsSource } from '../../contracts/background.js';
import type { ModuleManifest } from '../../contracts/wiring.js';
import { WEBHOOK_ID_PREFIXES } from './declarations.js';
import { createDeliveryDispatcher } from './dispatcher.js';
import { webhookFanOut } from './fan-out.js';
import { countDeliveriesOverBound, selectDeliveryWork, updatePendingFull } from './queries.js';
import { pruneWebhookDeliveries } from './retention.js';
import { webhookRoutes } from './routes/index.js';
import { DISPATCHER } from './wake.js';

/** One dispatcher per process, built by the composition root; the worker starts it. */
const webhookDispatcherComponent: WorkerComponent = {
  name: DISPATCHER,
  create: (deps) => createDeliveryDispatcher(deps),
};

const pruneWebhookDeliveriesJob: PeriodicJob = {
  name: 'prune_webhook_deliveries',
  everyMs: 10 * 60 * 1000,
  run: (services) => pruneWebhookDeliveries(services),
};

/**
 * The fan-out's view of each endpoint's bound of pending deliveries (webhook_endpoints.pending_full),
 * refreshed every few seconds: the fan-out written with every event reads the flag instead of
 * counting (docs/decisions/webhooks.md). Always answers 0: one round per period is enough.
 */
export const PENDING_BOUND_CHECK_MS = 5_000;
const webhookPendingBoundJob: PeriodicJob = {
  name: 'webhook_pending_bound',
  everyMs: PENDING_BOUND_CHECK_MS,
  run: async (services) => {
    await updatePendingFull(services.db, services.config.limits.webhookPendingDeliveries);
    return 0;
  },
};

/** Deliveries of new events written failed at the bound (pending_limit_exceeded), still within retention. */
const deliveriesOverBoundCounter: CounterSource = {
  name: 'webhook_deliveries_over_pending_bound',
  help: 'Webhook deliveries written failed (pending_limit_exceeded) because their endpoint was at its bound of pending deliveries, still within retention, by mode.',
  labelName: 'mode',
  read: (db) => countDeliveriesOverBound(db),
};

/** Attempts of the mode that the advance made due start at once, before the advance answers. */
const startDueWebhookAttempts: ClockAdvanceHook = {
  name: 'start_due_webhook_attempts',
  async run(services, scope) {
    await services.background.loop(DISPATCHER).runDue(scope);
  },
};

/**
 * The deliveries still to make, as background work of kind `webhook_delivery`: queued = pending,
 * in flight = under a live lease, failed = pending after a failed attempt (waiting for a retry;
 * deliveries given up are in the API, not here), oldest due age on each mode's clock.
 */
const webhookDeliveryWorkStats: WorkStatsSource = {
  name: 'webhook_delivery',
  stats: (db, nowMs) => selectDeliveryWork(db, new Date(nowMs)),
};

export const webhooksModule: ModuleManifest = {
  name: 'webhooks',
  tables: ['webhook_endpoints', 'webhook_deliveries'],
  idPrefixes: WEBHOOK_ID_PREFIXES,
  routes: { secret: webhookRoutes },
  periodic: [pruneWebhookDeliveriesJob, webhookPendingBoundJob],
  components: [webhookDispatcherComponent],
  workStats: [webhookDeliveryWorkStats],
  clockAdvanceHooks: [startDueWebhookAttempts],
  eventSubscribers: [webhookFanOut],
  counters: [deliveriesOverBoundCounter],
  tags: [{ name: 'Webhooks', description: 'Signed deliveries of events to HTTPS endpoints: endpoints, deliveries, retries and replay.', rank: 190 }],
};
