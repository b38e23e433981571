// What a module declares about an object other objects point to by id, so that `expand[]` can put
// the object in place of its id (src/http/expansion.ts does the expanding; the composition root
// gathers the declarations of every manifest into the Wiring).
import type { TSchema } from '@sinclair/typebox';
import type { OperationContext } from './context.js';

/** One kind of object (`order`, `listing`, …) as `expand[]` sees it. */
export interface ExpandableObject {
  /** The object's name, as its `object` field reads. */
  readonly object: string;
  /** The schema its retrieve route answers (what an expanded field holds). */
  readonly schema: TSchema;
  /** Whether a publishable key may read it: its retrieve route is in the publishable scope. */
  readonly publishable: boolean;
  /** Its fields that hold the id of another expandable object: field → that object's name. */
  readonly fields: Readonly<Record<string, string>>;
  /**
   * The objects of these ids, serialized as their retrieve route serializes them, read in a fixed
   * number of statements whatever the number of ids (one `= ANY(…)` read, plus any batched read
   * the serialization needs). An id the caller may not see is absent from the map.
   */
  load(ctx: OperationContext, ids: readonly string[]): Promise<ReadonlyMap<string, object>>;
}

/** Every expandable object of the service, by name. */
export type ExpandableObjects = Readonly<Record<string, ExpandableObject>>;

/** The loaded objects by id: what `load` answers. */
export function byId<T extends { id: string }>(objects: readonly T[]): ReadonlyMap<string, T> {
  return new Map(objects.map((object) => [object.id, object]));
}
