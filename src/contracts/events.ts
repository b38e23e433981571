// Events: the event types the modules declare with their catalog entries, the envelope stored and
// delivered, and the work a module may attach to every event. A module declares the types of the
// objects it owns in its folder (its declarations.ts, listed by its manifest, merged into
// ModuleEventTypes below by `declare module`), so emitting a type nobody declared does not
// compile; the composition root assembles the one catalog (src/app/wiring.ts) that GET
// /v1/event_types, the OpenAPI document's `webhooks`, webhook subscriptions ('*' selects every
// type, those added later too) and the events list filter read.
import type { TObject } from '@sinclair/typebox';
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';

/**
 * The event types the modules declare, by name. Empty here: each module's declarations.ts adds its
 * own (`declare module '../../contracts/events.js' { interface ModuleEventTypes extends ... {} }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleEventTypes {}

export type EventType = keyof ModuleEventTypes & string;

/** One type of the catalog: what it means and the object it carries. */
export interface EventTypeEntry {
  description: string;
  /** The schema of data.object: the schema the object's own routes answer with. */
  object: TObject;
  /** The component name of the object in the OpenAPI document (its $id where it has one). */
  objectName: string;
  /** Whether the event may carry data.previous_attributes: the old values of the fields that changed. */
  previousAttributes: boolean;
}

/** A type's description, and 'previous_attributes' when its events may carry the old values. */
export type EventTypeDescription = readonly [description: string, previousAttributes?: 'previous_attributes'];

/**
 * Types that carry one object, declared by the module that owns it. The catalog lists the groups by
 * rank, lowest first (spaced by 10, so a new group goes between two without moving them), each
 * group's types in the order written.
 */
export interface EventGroup<T extends string = string> {
  readonly objectName: string;
  readonly object: TObject;
  readonly rank: number;
  readonly types: Readonly<Record<T, EventTypeDescription>>;
}

/** A group of types as a module's declarations.ts writes it: `eventGroup({ objectName, object, rank }, { type: [description] })`. */
export function eventGroup<const T extends string>(
  of: { objectName: string; object: TObject; rank: number },
  types: Readonly<Record<T, EventTypeDescription>>,
): EventGroup<T> {
  return { ...of, types };
}

/** A module's groups as entries of ModuleEventTypes: `interface ModuleEventTypes extends EventTypesOf<typeof GROUPS> {}`. */
export type EventTypesOf<G extends readonly EventGroup[]> = { readonly [K in TypesOfGroup<G[number]>]: true };
type TypesOfGroup<G> = G extends { types: infer Types } ? keyof Types & string : never;

/** The assembled catalog: every declared type with its entry, in the catalog's order. */
export type EventCatalog = ReadonlyMap<EventType, EventTypeEntry>;

/** Whether a text from outside (a filter, a subscription) is a type of the catalog. */
export function isEventType(catalog: EventCatalog, value: string): value is EventType {
  return catalog.has(value as EventType);
}

/** The object an event carries (data.object): a serialized API object, with its id. */
export interface EventObject {
  id: string;
  [field: string]: unknown;
}

export interface EventRecord {
  id: string;
  object: 'event';
  type: EventType;
  api_version: 'v1';
  created: string;
  livemode: boolean;
  data: { object: EventObject; previous_attributes?: Record<string, unknown> };
}

/**
 * Work written with every event, in its transaction (webhook deliveries). Declared by modules in
 * their module.ts and handed to the database handle by the composition root (src/app/runtime.ts),
 * so the outbox depends on none of them.
 */
export type EventSubscriber = ((tx: Tx, scope: Scope, event: EventRecord) => Promise<void>) & {
  /**
   * The same work for several events of one change at once (emitEvents), in fewer statements than
   * one call per event; when absent, the subscriber is called once per event, in order.
   */
  many?: (tx: Tx, scope: Scope, events: readonly EventRecord[]) => Promise<void>;
};
