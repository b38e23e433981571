// Wiring: the work written with every event, in the event's transaction (src/events/emit.ts runs
// them; it imports no module). Webhook deliveries fan out here.
import type { EventSubscriber } from '../outbox/emit.js';
import { retryReleasesOnPayoutsEnabled } from '../modules/payments/operations.js';
import { webhookFanOut } from '../modules/webhooks/fan-out.js';

// A seller whose payouts become enabled gets its failed releases retried (contract 10).
export const eventSubscribers: readonly EventSubscriber[] = [webhookFanOut, retryReleasesOnPayoutsEnabled];
