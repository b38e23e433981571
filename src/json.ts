// JSON compared by value: object keys sorted at every depth, so a value read back from jsonb (which
// keeps keys in its own order) and the same value sent again compare equal, and a request body
// fingerprints the same whatever order its fields came in.

/**
 * The JSON text of a value with object keys sorted (by code unit) at every depth. Like
 * JSON.stringify, keys holding undefined are left out, undefined in an array reads as null, and a
 * value that is undefined itself has no text.
 */
export function canonicalJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const entries = Object.keys(record)
      .sort()
      .flatMap((key) => {
        const text = canonicalJson(record[key]);
        return text === undefined ? [] : [`${JSON.stringify(key)}:${text}`];
      });
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether two JSON values are equal, whatever the order of their object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
