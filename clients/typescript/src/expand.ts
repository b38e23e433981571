// Answers typed by the `expand` asked for: an expandable field (an id, or the object itself when
// expanded: `string | Seller` in the document) is the object where its path was asked for and
// the id everywhere else, two levels deep (`listing.seller`), in an object and in a page's data.
// `client.get('/v1/orders/{id}', { params: { path: { id }, query: { expand: ['seller'] } } })`
// answers an order whose `seller` is a Seller and whose `listing` is a string.

/** The paths `expand` takes on a query type (its enum), or never. */
export type ExpandPathsOf<Query> = Query extends { expand?: infer X } ? Flatten<NonNullable<X>> & string : never;
type Flatten<X> = X extends readonly (infer S)[] ? S : X;

/** What an init may carry to ask for expansions: `expand` as one path or an array of them. */
export interface ExpandInit<E extends string> {
  params?: { query?: { expand?: E | readonly E[] } };
}

/** A field that holds an id or, expanded, the object: a union of a string and an object. */
type IsExpandable<V> = [Extract<V, string>] extends [never] ? false : [Extract<V, object>] extends [never] ? false : true;

/** What `expand` paths under `K` ask of the object at `K` (`listing.seller` → `seller`). */
type Under<E extends string, K extends string> = E extends `${K}.${infer Rest}` ? Rest : never;

/** `T` with each expandable field as the object when `E` names it (or a path under it), else as the id. */
export type ExpandObject<T, E extends string> = T extends object
  ? {
      [K in keyof T]: K extends string
        ? IsExpandable<T[K]> extends true
          ? K extends E | `${E extends `${infer Head}.${string}` ? Head : never}`
            ? ExpandObject<Extract<T[K], object>, Under<E, K>> | Extract<T[K], null>
            : Exclude<T[K], object>
          : T[K]
        : T[K];
    }
  : T;

/** An answer with `E` expanded: an object, or a page whose items are. */
export type Expanded<T, E extends string> = T extends { object: 'list'; data: Array<infer Item> }
  ? { [K in keyof T]: K extends 'data' ? Array<ExpandObject<Item, E>> : T[K] }
  : ExpandObject<T, E>;
