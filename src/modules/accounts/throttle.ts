// Slowing down password guessing. Every login attempt is counted before its password is checked,
// in three buckets of fixed 15-minute windows, each by one atomic upsert that returns the new
// count, so parallel attempts cannot all pass a check made before any of them was counted:
//
//   email + client address    5 attempts   (one client guessing one account)
//   client address          100 attempts   (one client guessing many accounts)
//   email                    50 attempts   (many clients guessing one account: a real flood)
//
// The first two are the client's own: an attempt they refuse is not counted against the email,
// so a stranger from one address cannot lock the owner out; it takes 10 addresses at the limit to
// fill the email's bucket, and then only until that window ends. A successful login clears its
// client's bucket for the email and takes its attempt back from the other two, so only failures
// add up. Counted in the database, so every API process sees the same counts.
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../db/db.js';
import { DomainError } from '../../errors.js';
import { deleteEndedLoginAttempts, deleteLoginAttempts, updateLoginAttemptsTakenBack, upsertLoginAttempts, type LoginAttemptRow } from './queries.js';

export interface LoginLimit {
  attempts: number;
  windowMs: number;
}

const WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_LIMITS = {
  pair: { attempts: 5, windowMs: WINDOW_MS },
  address: { attempts: 100, windowMs: WINDOW_MS },
  email: { attempts: 50, windowMs: WINDOW_MS },
} satisfies Record<string, LoginLimit>;

type BucketKind = keyof typeof LOGIN_LIMITS;

const REFUSALS: Record<BucketKind, string> = {
  pair: 'Too many login attempts for this email from this address',
  address: 'Too many login attempts from this address',
  email: 'Too many login attempts for this email',
};

/** The 429 of a bucket over its limit: Retry-After is when its window ends (at least 1 s). */
export function tooManyAttempts(message: string, windowEnds: Date, nowMs: number): DomainError {
  const retryAfterSeconds = Math.max(1, Math.ceil((windowEnds.getTime() - nowMs) / 1000));
  return new DomainError('rate_limited', message, undefined, { retryAfterSeconds });
}

/** The buckets of one attempt, to settle it once the password was checked. */
export interface LoginAttempt {
  buckets: Record<BucketKind, string>;
}


/**
 * One statement: each bucket's row is created, or counted up, or (its window over) started
 * again at 1. Rows are locked in the order given, the same order in every statement.
 */
function count(q: Queryable, nowMs: number, buckets: Array<[string, LoginLimit]>): Promise<LoginAttemptRow[]> {
  return upsertLoginAttempts(
    q,
    new Date(nowMs),
    buckets.map(([bucket, limit]) => ({ bucket, expiresAt: new Date(nowMs + limit.windowMs) })),
  );
}

function refuseIfOver(rows: LoginAttemptRow[], attempt: LoginAttempt, nowMs: number, kinds: BucketKind[]): void {
  const over = kinds.flatMap((kind) => {
    const row = rows.find((r) => r.bucket === attempt.buckets[kind]);
    return row && row.attempts > LOGIN_LIMITS[kind].attempts ? [{ kind, row }] : [];
  });
  if (over.length === 0) return;
  // The latest window to end decides when an attempt can pass again.
  const last = over.reduce((a, b) => (b.row.expires_at.getTime() > a.row.expires_at.getTime() ? b : a));
  throw tooManyAttempts(`${REFUSALS[last.kind]}; wait Retry-After seconds.`, last.row.expires_at, nowMs);
}

/**
 * Counts a login attempt for (email, client address) before its password is checked; throws 429
 * rate_limited with Retry-After when a bucket is over its limit.
 */
export async function admitLoginAttempt(q: Queryable, clock: Clock, email: string, address: string): Promise<LoginAttempt> {
  const nowMs = clock.nowMs();
  const attempt: LoginAttempt = {
    buckets: { pair: `pair:${address}:${email}`, address: `address:${address}`, email: `email:${email}` },
  };
  const own = await count(q, nowMs, [
    [attempt.buckets.pair, LOGIN_LIMITS.pair],
    [attempt.buckets.address, LOGIN_LIMITS.address],
  ]);
  refuseIfOver(own, attempt, nowMs, ['pair', 'address']);
  const shared = await count(q, nowMs, [[attempt.buckets.email, LOGIN_LIMITS.email]]);
  refuseIfOver(shared, attempt, nowMs, ['email']);
  await pruneExpired(q, nowMs);
  return attempt;
}

/** The password was right: only failures count, so the attempt is taken back. */
export async function loginSucceeded(q: Queryable, clock: Clock, attempt: LoginAttempt): Promise<void> {
  await deleteLoginAttempts(q, attempt.buckets.pair);
  await updateLoginAttemptsTakenBack(q, [attempt.buckets.address, attempt.buckets.email], new Date(clock.nowMs()));
}

/**
 * Deletes up to 100 rows whose window ended, so buckets of passing addresses do not pile up.
 * SKIP LOCKED: it never waits for, nor deadlocks with, an attempt counting on one of them.
 */
function pruneExpired(q: Queryable, nowMs: number): Promise<void> {
  return deleteEndedLoginAttempts(q, new Date(nowMs), 100);
}
