// Database errors the domain turns into its own: the one place that knows PostgreSQL's error
// codes. Both drivers surface the SQLSTATE as `code` and the violated constraint (for a unique
// index: the index name) as `constraint`.
const UNIQUE_VIOLATION = '23505';
const DEADLOCK_DETECTED = '40P01';
const LOCK_NOT_AVAILABLE = '55P03';
const EXCLUSION_VIOLATION = '23P01';

/** The SQLSTATE of a database error, or null for any other value. */
export function sqlState(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : null;
}

/** A row overlapped another that an exclusion constraint keeps apart (the bookings' seats). */
export function exclusionViolation(error: unknown): boolean {
  return sqlState(error) === EXCLUSION_VIOLATION;
}

/** A lock was not granted within lock_timeout (or NOWAIT). */
export function lockNotAvailable(error: unknown): boolean {
  return sqlState(error) === LOCK_NOT_AVAILABLE;
}

/** The name of the unique index a statement violated, or null when the error is something else. */
export function uniqueViolation(error: unknown): string | null {
  if (sqlState(error) !== UNIQUE_VIOLATION) return null;
  const { constraint } = error as { constraint?: unknown };
  return typeof constraint === 'string' ? constraint : '';
}

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
    if (options.deadlock && sqlState(error) === DEADLOCK_DETECTED) throw options.deadlock();
    const index = uniqueViolation(error);
    const mapped = index === null ? undefined : byIndex[index];
    throw mapped ? mapped() : error;
  }
}

const REFUSAL = 'MK001';

/**
 * The reason a statement refused through raise_refusal(reason) (migrations/0014_refusals.sql), or
 * null when the error is something else.
 */
export function refusal(error: unknown): string | null {
  if (sqlState(error) !== REFUSAL) return null;
  const { message } = error as { message?: unknown };
  return typeof message === 'string' ? message : '';
}
