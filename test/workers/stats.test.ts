// backgroundWorkStats: the figures GET /metrics reads, per job kind and per timer kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueEmail } from '../../src/modules/emails/outbox.js';
import { backgroundWorkStats } from '../../src/workers/stats.js';
import { workerFixture, type WorkerFixture } from './helpers.js';

let f: WorkerFixture;
beforeAll(async () => {
  f = await workerFixture();
});
afterAll(() => f.close());

const NOW = Date.parse('2026-11-21T09:30:00.000Z');
const at = (secondsFromNow: number) => new Date(NOW + secondsFromNow * 1000);

describe('backgroundWorkStats', () => {
  it('counts queued, in-flight and failed work and the age of the oldest due, per kind', async () => {
    const { db } = f.services;
    const job = (kind: string, status: string, runAt: Date, lockedUntil: Date | null = null, clock = 'real') =>
      db.query(
        `INSERT INTO jobs (kind, marketplace_id, mode, workspace_id, status, clock, run_at, locked_by, locked_until, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          kind,
          clock === 'mode' ? f.scope.marketplaceId : null,
          clock === 'mode' ? f.scope.mode : null,
          clock === 'mode' ? null : f.workspaceId,
          status,
          clock,
          runAt,
          lockedUntil ? 'worker' : null,
          lockedUntil,
          at(-3600),
        ],
      );
    await job('stats.a', 'queued', at(-30));
    await job('stats.a', 'queued', at(-10));
    await job('stats.a', 'queued', at(+60)); // not due yet
    await job('stats.a', 'running', at(-300), at(+30)); // live lease
    await job('stats.a', 'failed', at(-900));
    // A lease that ran out 45 s ago is due again, for another worker to take over.
    await job('stats.b', 'running', at(-600), at(-45));
    // On the mode's clock, two hours ahead: due an hour ago.
    await job('stats.mode', 'queued', at(+3600), null, 'mode');
    await db.query('UPDATE marketplace_modes SET clock_offset_ms = 7200000 WHERE marketplace_id = $1 AND mode = $2', [f.scope.marketplaceId, f.scope.mode]);
    const timer = (id: string, status: string, runAt: Date) =>
      db.query(
        `INSERT INTO timers (marketplace_id, mode, id, kind, subject_id, run_at, status, created_at) VALUES ($1, $2, $3, 'stats.timer', $3, $4, $5, $6)`,
        [f.scope.marketplaceId, f.scope.mode, id, runAt, status, at(-3600)],
      );
    await timer('t1', 'pending', at(7200 - 20)); // due 20 s ago on the mode's clock
    await timer('t2', 'pending', at(+7200 + 60)); // not yet
    await timer('t3', 'failed', at(-9000));

    const stats = (await backgroundWorkStats(db, NOW)).filter((row) => row.kind.includes('stats.'));
    expect(stats).toEqual([
      { kind: 'stats.a', queued: 3, inFlight: 1, failed: 1, oldestDueAgeSeconds: 30 },
      { kind: 'stats.b', queued: 0, inFlight: 0, failed: 0, oldestDueAgeSeconds: 45 },
      { kind: 'stats.mode', queued: 1, inFlight: 0, failed: 0, oldestDueAgeSeconds: 3600 },
      { kind: 'timer:stats.timer', queued: 2, inFlight: 0, failed: 1, oldestDueAgeSeconds: 20 },
    ]);
  });

  it('covers the kinds of the real registry: an email queued shows under email.send', async () => {
    await f.services.db.transaction((tx) => queueEmail(tx, f.workspaceId, ['ops@example.com'], 'Hi', 'Body', at(-5)));
    const [email] = (await backgroundWorkStats(f.services.db, NOW)).filter((row) => row.kind === 'email.send');
    expect(email).toEqual({ kind: 'email.send', queued: 1, inFlight: 0, failed: 0, oldestDueAgeSeconds: 5 });
  });
});
