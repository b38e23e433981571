// A kind of job (src/contracts/background.ts) with its defaults filled in. Adding a kind is one
// object (src/modules/emails/sender.ts is the one to copy) in its module's module.ts. The handler runs with no transaction open; what it reports is
// recorded by the engine in a short transaction of its own, where onSettled writes the domain's
// side of it (the email's status) atomically with the job's.
import type { JobKind } from '../contracts/background.js';

export type ResolvedJobKind = Required<Omit<JobKind, 'onSettled'>> & Pick<JobKind, 'onSettled'>;

/** `baseMs` after the first failure, doubling, at most `maxMs`. */
export function exponentialBackoff(baseMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function resolveKind(kind: JobKind): ResolvedJobKind {
  const concurrency = kind.concurrency ?? 10;
  const resolved: ResolvedJobKind = {
    name: kind.name,
    handle: kind.handle,
    onSettled: kind.onSettled,
    enabled: kind.enabled ?? (() => true),
    maxAttempts: kind.maxAttempts ?? 10,
    backoffMs: kind.backoffMs ?? exponentialBackoff(10_000, 60 * 60 * 1000),
    leaseMs: kind.leaseMs ?? 60_000,
    concurrency,
    batchSize: kind.batchSize ?? Math.min(concurrency, 100),
    perKeyLimit: kind.perKeyLimit ?? null,
    clock: kind.clock ?? 'real',
  };
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) throw new Error(`${kind.name}: maxAttempts must be 1 or more`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`${kind.name}: concurrency must be 1 or more`);
  if (resolved.perKeyLimit !== null && (!Number.isInteger(resolved.perKeyLimit) || resolved.perKeyLimit < 1)) {
    throw new Error(`${kind.name}: perKeyLimit must be 1 or more`);
  }
  if (resolved.leaseMs < 1000) throw new Error(`${kind.name}: leaseMs must be at least 1000`);
  return resolved;
}
