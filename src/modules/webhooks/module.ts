// The webhooks module's background work, registered in src/modules/background.ts: the dispatcher
// as a component of the worker, the retention job, the test clock's hook, and the figures of
// GET /metrics.
import type { ClockAdvanceHook, PeriodicJob, WorkerComponent, WorkStatsSource } from '../../workers/registry.js';
import { dispatcherFor, forgetDispatcher } from './dispatcher.js';
import { selectDeliveryWork } from './queries.js';
import { pruneWebhookDeliveries } from './retention.js';

export const webhookDispatcherComponent: WorkerComponent = {
  name: 'webhook_dispatcher',
  start(services, log) {
    const dispatcher = dispatcherFor(services, { log });
    dispatcher.start();
    return {
      async stop() {
        await dispatcher.stop();
        forgetDispatcher(services.db);
      },
    };
  },
};

export const pruneWebhookDeliveriesJob: PeriodicJob = {
  name: 'prune_webhook_deliveries',
  everyMs: 10 * 60 * 1000,
  run: (services) => pruneWebhookDeliveries(services),
};

/** Attempts of the mode that the advance made due start at once, before the advance answers. */
export const startDueWebhookAttempts: ClockAdvanceHook = {
  name: 'start_due_webhook_attempts',
  async run(services, scope) {
    await dispatcherFor(services).runDue(scope);
  },
};

/**
 * The deliveries still to make, as background work of kind `webhook_delivery`: queued = pending,
 * in flight = under a live lease, failed = pending after a failed attempt (waiting for a retry;
 * deliveries given up are in the API, not here), oldest due age on each mode's clock.
 */
export const webhookDeliveryWorkStats: WorkStatsSource = {
  name: 'webhook_delivery',
  stats: (db, nowMs) => selectDeliveryWork(db, new Date(nowMs)),
};
