// The webhooks module's background work, registered in src/modules/background.ts: the dispatcher
// as a component of the worker, the retention job, and the test clock's hook.
import type { ClockAdvanceHook, PeriodicJob, WorkerComponent } from '../../workers/registry.js';
import { dispatcherFor, forgetDispatcher } from './dispatcher.js';
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
