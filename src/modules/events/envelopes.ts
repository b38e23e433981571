// The envelope of each event type as its own schema: the Event of schemas.ts with `type` fixed and
// data.object the catalog's object schema (the catalog the composition root assembled from the
// modules' declarations, src/app/wiring.ts). They become the OpenAPI document's `webhooks` and
// `components.schemas.<Pascal>Event` (src/http/openapi.ts addWebhooks), and the test suite
// validates every stored event against them (test/helpers/event-schemas.ts).
import { Type, type TObject } from '@sinclair/typebox';
import type { EventCatalog, EventType, EventTypeEntry } from '../../contracts/events.js';
import { Timestamp } from '../../http/schemas.js';

/** order.cancellation_proposed → OrderCancellationProposedEvent: the component name of a type's envelope. */
export function envelopeNameOf(type: EventType): string {
  const words = type.split(/[._]/);
  return words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('') + 'Event';
}

/** The object schema named by its component ($id), so the document references it instead of copying it. */
function named(object: TObject, name: string): TObject {
  return object.$id === undefined ? { ...object, $id: name } : object;
}

/** The envelope schema of one event type. */
export function envelopeOf(type: EventType, entry: EventTypeEntry): TObject {
  const object = named(entry.object, entry.objectName);
  const data = entry.previousAttributes
    ? Type.Object(
        {
          object,
          previous_attributes: Type.Optional(
            Type.Partial(Type.Object(entry.object.properties), {
              description: 'The old values of the fields that changed; present when fields changed.',
            }),
          ),
        },
        { additionalProperties: false },
      )
    : Type.Object({ object }, { additionalProperties: false });
  return Type.Object(
    {
      id: Type.String({ examples: ['evt_01jd7v3k2m4n5p6q7r8s9t0v1w'] }),
      object: Type.Literal('event'),
      type: Type.Literal(type),
      api_version: Type.Literal('v1'),
      created: Timestamp,
      livemode: Type.Boolean(),
      data,
    },
    { $id: envelopeNameOf(type), title: type, description: entry.description, additionalProperties: false },
  );
}

/** Every type's envelope, in the catalog's order. */
export function envelopesOf(catalog: EventCatalog): ReadonlyMap<EventType, TObject> {
  return new Map([...catalog].map(([type, entry]) => [type, envelopeOf(type, entry)]));
}
