// The catalog as the OpenAPI document's `webhooks` (src/http/openapi.ts addWebhooks): one POST per
// event type, its body the type's envelope.
import type { OpenApiWebhook } from '../../http/openapi.js';
import { EVENT_CATALOG } from './catalog.js';
import { EVENT_ENVELOPES } from './envelopes.js';

export function eventWebhooks(): OpenApiWebhook[] {
  return [...EVENT_ENVELOPES].map(([type, schema]) => ({
    name: type,
    description: `${EVENT_CATALOG[type].description} The body is the event; \`data.object\` is the object right after the change.`,
    schema,
  }));
}
