// Database errors the domain turns into its own. Both drivers surface PostgreSQL's SQLSTATE as
// `code` and the violated constraint (for a unique index: the index name) as `constraint`.
const UNIQUE_VIOLATION = '23505';

/** The name of the unique index a statement violated, or null when the error is something else. */
export function uniqueViolation(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code !== UNIQUE_VIOLATION) return null;
  return typeof constraint === 'string' ? constraint : '';
}

/**
 * Runs fn and turns a violation of one of the named unique indexes into the domain error given for
 * it. Catching the violation (rather than only checking first) is what holds under concurrency.
 */
export async function mapUniqueViolations<T>(fn: () => Promise<T>, byIndex: Record<string, () => Error>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const index = uniqueViolation(error);
    const mapped = index === null ? undefined : byIndex[index];
    throw mapped ? mapped() : error;
  }
}
