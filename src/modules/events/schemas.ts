// The event envelope as a response schema. data.object and
// data.previous_attributes are free-form: declared open so the serializer keeps every field of
// the changed object, nested ones included (a closed schema would silently drop them). The schemas
// that name the event types are made from the catalog the root assembled, when the routes register.
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery, StringEnum, Timestamp } from '../../http/schemas.js';

const FreeForm = (description: string) => Type.Object({}, { additionalProperties: true, description });

const EXAMPLE = {
  id: 'evt_01jd7v3k2m4n5p6q7r8s9t0v1w',
  object: 'event',
  type: 'listing.updated',
  api_version: 'v1',
  created: '2026-11-21T09:30:00.000Z',
  livemode: false,
  data: {
    object: { id: 'lst_01jd7v2a0b1c2d3e4f5g6h7j8k', object: 'listing', title: 'Oak desk', status: 'published' },
    previous_attributes: { title: 'Desk' },
  },
};

/** The event as stored and delivered; the TypeScript shape is EventRecord (src/outbox/emit.ts), which emitEvent writes. */
export const Event = Type.Object(
  {
    id: Type.String({ examples: [EXAMPLE.id] }),
    object: Type.Literal('event'),
    type: Type.String({ description: 'One of the event types of the API reference.', examples: ['listing.updated'] }),
    api_version: Type.Literal('v1'),
    created: Timestamp,
    livemode: Type.Boolean(),
    data: Type.Object({
      object: FreeForm('The object as it was right after the change.'),
      previous_attributes: Type.Optional(FreeForm('On *.updated events: the old values of the fields that changed.')),
    }),
  },
  { examples: [EXAMPLE] },
);

export const EventList = ListOf(Event);

/** The events list's query; `types`: every type of the catalog, in its order. */
export function listEventsQuery(types: readonly string[]) {
  return ListQuery({
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `Only events of this type: one of ${types.join(', ')}.`,
        examples: ['order.created'],
      }),
    ),
  });
}
export type ListEventsQuery = Static<ReturnType<typeof listEventsQuery>>;

/** An event type of the catalog as an object; `types`: every type of the catalog, in its order. */
export function eventTypeObject(types: readonly string[]) {
  return Type.Object(
  {
    object: Type.Literal('event_type'),
    type: StringEnum(types, { description: 'The event type, as in an event\'s `type` and a webhook endpoint\'s `enabled_events`.' }),
    description: Type.String({ description: 'What happened when an event of this type is emitted.' }),
    schema: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "The JSON Schema (2020-12, self-contained) of the event's `data.object`: the schema the object's own routes answer with.",
      },
    ),
  },
  {
    examples: [
      {
        object: 'event_type',
        type: 'refund.created',
        description: 'A refund was created.',
        schema: { type: 'object', required: ['object', 'id'], properties: { object: { type: 'string', enum: ['refund'] }, id: { type: 'string' } } },
      },
    ],
  },
  );
}
export type EventTypeObject = Static<ReturnType<typeof eventTypeObject>>;

export const ListEventTypesQuery = ListQuery({});

export const EventTypeParams = Type.Object(
  { type: Type.String({ minLength: 1, maxLength: 100, examples: ['order.created'] }) },
  { additionalProperties: false },
);
