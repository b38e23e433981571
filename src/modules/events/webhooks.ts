// The catalog as the OpenAPI document's `webhooks` (src/http/openapi.ts addWebhooks): one POST per
// event type, its body the type's envelope.
import type { OpenApiWebhook } from '../../http/openapi.js';
import type { EventCatalog } from '../../contracts/events.js';
import { envelopesOf } from './envelopes.js';

export function eventWebhooks(catalog: EventCatalog): OpenApiWebhook[] {
  return [...envelopesOf(catalog)].map(([type, schema]) => ({
    name: type,
    description: `${catalog.get(type)!.description} The body is the event; \`data.object\` is the object right after the change.`,
    schema,
  }));
}
