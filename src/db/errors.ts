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

const DEADLOCK_DETECTED = '40P01';

export interface UniqueOptions {
  /**
   * The error a deadlock means. Two updates that swap unique values (A's external id to B's and
   * B's to A's) each wait in the unique index for the other's old value, and PostgreSQL fails one
   * of them. Taken one after the other, each would have found its new value still taken, so the
   * victim's answer is that conflict. Only for operations whose one contended write is the unique
   * value (their own row is locked first), so no other deadlock can arise in them.
   */
  deadlock?: () => Error;
}

/**
 * Runs fn and turns a violation of one of the named unique indexes into the domain error given for
 * it. Catching the violation (rather than only checking first) is what holds under concurrency.
 */
export async function mapUniqueViolations<T>(
  fn: () => Promise<T>,
  byIndex: Record<string, () => Error>,
  options: UniqueOptions = {},
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (options.deadlock && isDeadlock(error)) throw options.deadlock();
    const index = uniqueViolation(error);
    const mapped = index === null ? undefined : byIndex[index];
    throw mapped ? mapped() : error;
  }
}

function isDeadlock(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DEADLOCK_DETECTED;
}
