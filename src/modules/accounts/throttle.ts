// Slowing down password guessing (contract 16): after MAX_FAILURES failed logins for one email
// within WINDOW_MS, that email's logins answer 429 until the oldest failure leaves the window.
// Counted in the database, so every API process sees the same count.
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../db/db.js';
import { DomainError } from '../../errors.js';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

export async function checkLoginThrottle(q: Queryable, clock: Clock, email: string): Promise<void> {
  const nowMs = clock.nowMs();
  const rows = await q.query<{ failures: number; oldest: Date | null }>(
    `SELECT count(*)::int AS failures, min(created_at) AS oldest FROM login_failures WHERE email = $1 AND created_at > $2`,
    [email, new Date(nowMs - WINDOW_MS)],
  );
  const { failures, oldest } = rows[0] ?? { failures: 0, oldest: null };
  if (failures < MAX_FAILURES || oldest === null) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest.getTime() + WINDOW_MS - nowMs) / 1000));
  throw new DomainError('rate_limited', 'Too many failed logins for this email; wait Retry-After seconds.', undefined, {
    retryAfterSeconds,
  });
}

export async function recordLoginFailure(q: Queryable, clock: Clock, email: string): Promise<void> {
  const now = new Date(clock.nowMs());
  await q.query('DELETE FROM login_failures WHERE email = $1 AND created_at <= $2', [email, new Date(now.getTime() - WINDOW_MS)]);
  await q.query('INSERT INTO login_failures (email, created_at) VALUES ($1, $2)', [email, now]);
}

export async function clearLoginFailures(q: Queryable, email: string): Promise<void> {
  await q.query('DELETE FROM login_failures WHERE email = $1', [email]);
}
