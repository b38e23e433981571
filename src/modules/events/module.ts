// The events module's manifest (src/contracts/wiring.ts): GET /v1/events over the stored events
// (written by src/outbox/emit.ts), and their redaction when a party is erased.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { storedEventsErasure } from './erasure.js';
import { eventRoutes } from './routes/index.js';

export const eventsModule: ModuleManifest = {
  name: 'events',
  tables: ['events'],
  routes: { secret: eventRoutes },
  erasure: storedEventsErasure,
};
