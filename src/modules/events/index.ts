// The events module's public surface: the event catalog, for the composition root (the OpenAPI
// document's `webhooks`, src/app/runtime.ts) and the tests that validate stored events against it.
// No module imports this one: the catalog imports the modules whose objects events carry.
export { EVENT_CATALOG, type EventTypeEntry } from './catalog.js';
export { EVENT_ENVELOPES, envelopeNameOf, envelopeOf } from './envelopes.js';
export { eventWebhooks } from './webhooks.js';
