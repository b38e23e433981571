// The events module's manifest (src/contracts/wiring.ts): GET /v1/events over the stored events
// (written by src/outbox/emit.ts), and their redaction when a party is erased.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { storedEventsErasure } from './erasure.js';
import { eventRoutes } from './routes/index.js';

export const eventsModule: ModuleManifest = {
  name: 'events',
  tables: ['events'],
  routes: { secret: eventRoutes },
  erasure: { participant: storedEventsErasure },
  tags: [{ name: 'Events', description: 'Every state change, newest first, to catch up after missed webhooks; and the catalog of event types with the schema of each payload (also the `webhooks` of this document).', rank: 180 }],
};
