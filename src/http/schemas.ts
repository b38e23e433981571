// Shared TypeBox pieces of the /v1 conventions.
import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

export const MAX_AMOUNT = 99_999_999_999;

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'] });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** The latest time a unix-seconds input may name: 9999-12-31T23:59:59Z, as ISO 8601 can. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

/**
 * Every time the API takes (a filter, a report's interval, a body field): the API's ISO 8601
 * timestamp, as objects carry it (`2026-11-21T09:30:00.000Z`; an offset such as `+02:00` is
 * accepted), or unix seconds. One schema everywhere (docs/requests.md, "Times"); read it with
 * timeInput(). In a query string both are text: the ISO form is tried first, then digits.
 */
export function TimeInput(description: string) {
  return Type.Union(
    [
      Type.String({ format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'] }),
      Type.Integer({ minimum: 0, maximum: MAX_UNIX_SECONDS, examples: [1795253400] }),
    ],
    { description: `${description} An ISO 8601 timestamp (2026-11-21T09:30:00.000Z) or unix seconds.` },
  );
}

/** A TimeInput's value as a Date. */
export function timeInput(value: string | number): Date {
  return typeof value === 'number' ? new Date(value * 1000) : new Date(value);
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * One of a fixed set of strings, documented as `{type: string, enum: [...]}` rather than an anyOf
 * of single literals; its static type is the union of the values.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

// TypeBox turns a Record's key schema into patternProperties, which drops the key's maxLength:
// propertyNames carries the key limit to the validator.
export const Metadata = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  propertyNames: { maxLength: 40 },
  description: 'Up to 50 keys of up to 40 characters, values of up to 500 characters. An update replaces it whole.',
  examples: [{ order_ref: 'A-1001' }],
});
export type Metadata = Static<typeof Metadata>;

export const Amount = Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: 'Minor units.' });

export const Currency = Type.String({
  pattern: '^[A-Za-z]{3}$',
  description: 'ISO 4217 code; compared case-insensitively, returned upper case.',
  examples: ['USD'],
});

export const Money = Type.Object(
  { amount: Amount, currency: Currency },
  { additionalProperties: false, examples: [{ amount: 2500, currency: 'USD' }] },
);

/** A path parameter holding an object id. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

/** limit and starting_after of every list operation. */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  starting_after: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The next_cursor of the previous page.' })),
};

/** The query string of a list operation: paging (read by pageRequest, src/db/paging.ts) and its filters; closed. */
export function ListQuery<T extends Record<string, TSchema>>(filters: T) {
  return Type.Object({ ...PageQuery, ...filters }, { additionalProperties: false });
}

/** A page of items. When the item schema has examples, the page shows them as its own example. */
export function ListOf<T extends TSchema>(item: T) {
  const examples = item.examples as unknown[] | undefined;
  return Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Nullable(Type.String()),
    },
    Array.isArray(examples) && examples.length > 0
      ? { examples: [{ object: 'list', data: examples, has_more: false, next_cursor: null }] }
      : {},
  );
}

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: "Why the request failed; each operation's error answers list the codes it may answer. Treat a code you do not know by the status." }),
      message: Type.String({ description: 'What went wrong, for people; its wording may change.' }),
      param: Type.Optional(Type.String({ description: 'The field at fault (`price.currency`), when there is one.' })),
      request_id: Type.String({ description: 'The id of the request (the Request-Id header): quote it when asking for help.' }),
    }),
  },
  { $id: 'Error' },
);

/**
 * The error answers every operation documents: the Error envelope, keyed by status class and never
 * as `default`. Fastify serializes every status a route does not list with its `default` schema,
 * successes included, so a 201 from a route that declares only 200 (or none) would be forced
 * through the error envelope's serializer and fail. The OpenAPI document names the codes of each
 * class per operation (src/http/openapi.ts).
 */
export const ErrorResponses = {
  '4xx': { description: 'Client error', $ref: 'Error#' },
  '5xx': { description: 'Server error', $ref: 'Error#' },
};

/** Bodies of operations are closed: an unknown field is refused, never dropped. */
export function Body<T extends Record<string, TSchema>>(properties: T, description?: string) {
  return Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
}

/** The body of an operation without fields: no body, {} or null; any field is refused by name. */
export const EmptyBody = Type.Union([Body({}), Type.Null()], { description: 'None: send no body, or {}.' });

/** The query string of an operation without query parameters: any parameter is refused by name. */
export const NoQuery = Type.Object({}, { additionalProperties: false });
