// Leases and fences, the one way every claimed row of the background engine is held: a claim sets
// `locked_by` (a fence token naming the worker, and for batch claims the claim) and `locked_until`
// (real time) in its one committed statement; the I/O runs with no transaction open; the outcome
// is written only where `locked_by` still holds the token (the fence), and the lease is dropped
// with it. A row whose lease ran out is claimable again. The SQL of each table stays with its
// owner (job-queue.ts for jobs, the webhooks module for its deliveries); these are the fragments
// they all write the lease with, so the columns and their meaning cannot drift apart.

/** `<alias>.locked_until` is null or passed at `now` (a SQL expression): no live lease holds the row. */
export function leaseFree(alias: string, now: string): string {
  return `(${alias}.locked_until IS NULL OR ${alias}.locked_until <= ${now})`;
}

/** The SET list that takes the lease: `token` until `now + leaseMs` (SQL expressions). */
export function takeLease(token: string, now: string, leaseMs: string): string {
  return `locked_by = ${token}, locked_until = ${now}::timestamptz + make_interval(secs => ${leaseMs} / 1000.0)`;
}

/** The SET list that drops the lease (an outcome recorded, or the row handed back). */
export const DROP_LEASE = 'locked_by = NULL, locked_until = NULL';

/** The fence: the row is still held by `token` (a SQL expression), so the outcome may be written. */
export function heldBy(alias: string, token: string): string {
  return `${alias}.locked_by = ${token}`;
}

/**
 * The fence tokens of one claim loop: `<worker id>#<claim number>`, a new one per claim, so an
 * outcome of an earlier claim of the same worker cannot be written over a later claim of its row.
 */
export class FenceTokens {
  private seq = 0;

  constructor(readonly workerId: string) {}

  next(): string {
    return `${this.workerId}#${++this.seq}`;
  }
}
