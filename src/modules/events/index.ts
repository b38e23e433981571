// The events module's public surface: the envelopes of the catalog's types, for the composition
// root (the OpenAPI document's `webhooks`, src/app/runtime.ts) and the tests that validate stored
// events against them. The catalog itself is the root's (src/app/wiring.ts), from the modules'
// declarations.
export { envelopeNameOf, envelopeOf, envelopesOf } from './envelopes.js';
export { eventWebhooks } from './webhooks.js';
