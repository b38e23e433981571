// The liveness rule of Idempotency-Key claims (src/http/claim-owners.ts): a claim lasts as long as
// the process that made it. PostgreSQL: another process's claim is in use while its owner lock is
// held, however old, and runs anew at once when it is not; a request whose claim was taken over
// all the same rolls back (the fence). PGlite: a start abandons every claim left in the files.
// The killed process itself: test/main/idempotency-crash.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { Db } from '../../src/db/db.js';
import { claimOwners, OWNER_LOCK } from '../../src/http/claim-owners.js';
import { fingerprint } from '../../src/http/idempotency.js';
import { closeServices, createApp, createServices } from '../../src/app/runtime.js';
import { startTestApp, testConfig, usingPostgres, type TestContext } from '../helpers/harness.js';
import { deferred, fixtureControl, fixtureRoutes } from './fixtures.js';

const clock = new ManualClock();
const control = fixtureControl();
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ clock, routes: fixtureRoutes(control) });
});
afterAll(() => ctx.close());

let seq = 0;
const uniqueKey = () => `owner-${Date.now().toString(36)}-${++seq}`;
const post = (body: unknown, key: string) =>
  ctx.request('/v1/_test/widgets', { method: 'POST', body, headers: { 'idempotency-key': key } });
const sameRequest = (body: unknown) => fingerprint({ method: 'POST', url: '/v1/_test/widgets', body } as FastifyRequest);

async function writesNamed(name: string): Promise<number> {
  const [row] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE data->'object'->>'name' = $1`, [name]);
  return row!.n;
}

/** A claim as another process leaves it: its owner, a lock that lapsed long ago, no answer. */
async function claimBy(owner: number, key: string, body: unknown) {
  const now = clock.nowMs();
  await ctx.db.query(
    `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, locked_until, created_at, request_id, claimed_by)
     VALUES ($1, 'test', $2, $3, $4, $5, 'req_elsewhere', $6)`,
    [ctx.marketplaceId, key, sameRequest(body), new Date(now - 60_000), new Date(now - 120_000), owner],
  );
}

async function newOwnerId(): Promise<number> {
  const [row] = await ctx.db.query<{ id: number }>("SELECT nextval('idempotency_claim_owners')::int AS id");
  return row!.id;
}

describe.runIf(usingPostgres)('PostgreSQL: a claim lasts as long as its owner process', () => {
  it("a live owner's claim is never taken, however old; once the owner is gone the retry runs at once", async () => {
    const owner = await newOwnerId();
    // The other process: its owner lock, held on a session of its own.
    const held = await ctx.db.holdLock!(OWNER_LOCK, owner, {});
    const key = uniqueKey();
    await claimBy(owner, key, { name: 'owned' });
    try {
      clock.advance(10 * 60_000);
      for (let i = 0; i < 2; i++) {
        const refused = await post({ name: 'owned' }, key);
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe('idempotency_key_in_use');
      }
    } finally {
      await held.release();
    }
    const ran = await post({ name: 'owned' }, key);
    expect(ran.status, ran.text).toBe(201);
    expect(ran.headers['idempotent-replayed']).toBeUndefined();
    expect(await writesNamed('owned')).toBe(1);
    const replay = await post({ name: 'owned' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await writesNamed('owned')).toBe(1);
  });

  it("a dead owner's claim is taken at once, before the old 60 s lock would lapse", async () => {
    const key = uniqueKey();
    await claimBy(await newOwnerId(), key, { name: 'orphan' });
    await ctx.db.query('UPDATE idempotency_keys SET locked_until = $2 WHERE key = $1', [key, new Date(clock.nowMs() + 60_000)]);
    const ran = await post({ name: 'orphan' }, key);
    expect(ran.status, ran.text).toBe(201);
    const [row] = await ctx.db.query<{ claimed_by: number; request_id: string }>('SELECT claimed_by, request_id FROM idempotency_keys WHERE key = $1', [key]);
    expect(row!.request_id).toBe(ran.headers['request-id']);
    // The claim now names this process, whose lock is held.
    const [lock] = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 2 AND granted`,
      [OWNER_LOCK, row!.claimed_by],
    );
    expect(lock!.n).toBe(1);
  });

  it('another live process (a second app on the same database) never takes a running claim', async () => {
    const other = await createServices(testConfig(), { clock, db: ctx.db });
    const otherApp = await createApp(other, { logger: false, routes: fixtureRoutes(fixtureControl()) });
    const key = uniqueKey();
    const gate = deferred();
    const entered = deferred();
    control.gate = { entered: entered.resolve, wait: gate.promise };
    try {
      const first = post({ name: 'two-apps' }, key);
      await entered.promise;
      control.gate = null;
      const duplicate = await otherApp.inject({
        method: 'POST',
        url: '/v1/_test/widgets',
        headers: { authorization: `Bearer ${ctx.keys.test.secret_key}`, 'content-type': 'application/json', 'idempotency-key': key },
        payload: JSON.stringify({ name: 'two-apps' }),
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().error.code).toBe('idempotency_key_in_use');
      gate.resolve();
      expect((await first).status).toBe(201);
    } finally {
      control.gate = null;
      gate.resolve();
      await otherApp.close();
      await other.rateLimiter.close();
    }
    expect(await writesNamed('two-apps')).toBe(1);
  });

  it('a request whose claim was taken over meanwhile rolls back and answers 409; the row stays the taker’s', async () => {
    const key = uniqueKey();
    const gate = deferred();
    const entered = deferred();
    control.gate = { entered: entered.resolve, wait: gate.promise };
    try {
      const first = post({ name: 'fenced' }, key);
      await entered.promise;
      control.gate = null;
      // As a retry does when it finds the owner's lock free (its connection lost): a new request.
      await ctx.db.query(`UPDATE idempotency_keys SET request_id = 'req_taker', claimed_by = NULL WHERE key = $1`, [key]);
      gate.resolve();
      const res = await first;
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('idempotency_key_in_use');
      expect(res.body.error.message).toContain('taken over');
    } finally {
      control.gate = null;
      gate.resolve();
    }
    expect(await writesNamed('fenced')).toBe(0);
    const [row] = await ctx.db.query<{ request_id: string; response_status: number | null }>(
      'SELECT request_id, response_status FROM idempotency_keys WHERE key = $1',
      [key],
    );
    expect(row).toEqual({ request_id: 'req_taker', response_status: null });
  });

  it("an owner whose connection is lost takes its lock again (the server ended the session)", async () => {
    const key = uniqueKey();
    expect((await post({ name: 'reconnect' }, key)).status).toBe(201);
    const [row] = await ctx.db.query<{ claimed_by: number }>('SELECT claimed_by FROM idempotency_keys WHERE key = $1', [key]);
    const holder = () =>
      ctx.db.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 2 AND granted`,
        [OWNER_LOCK, row!.claimed_by],
      );
    const [before] = await holder();
    await ctx.db.query('SELECT pg_terminate_backend($1)', [before!.pid]);
    await expect
      .poll(async () => {
        const pid = (await holder())[0]?.pid;
        return pid !== undefined && pid !== before!.pid;
      }, { timeout: 10_000, interval: 50 })
      .toBe(true);
  });
});

describe('claimOwners', () => {
  it('a first start that fails fails the claim, and the next claim tries again', async () => {
    let attempts = 0;
    const fake = {
      kind: 'postgres',
      query: async () => [{ id: 7 }],
      holdLock: async () => {
        attempts++;
        if (attempts === 1) throw new Error('connection refused');
        return { release: async () => undefined };
      },
    } as unknown as Db;
    const owners = claimOwners(fake);
    await expect(owners.ownId()).rejects.toThrow('connection refused');
    expect(await owners.ownId()).toBe(7);
    expect(await owners.ownId()).toBe(7);
    expect(attempts).toBe(2);
    await owners.close();
    await expect(owners.ownId()).rejects.toThrow('closed');
  });

  it('on PGlite there is no owner id and every claim found is alive', async () => {
    const owners = claimOwners({ kind: 'pglite' } as unknown as Db);
    expect(await owners.ownId()).toBeNull();
    expect(await owners.isAlive(null as never, { claimed_by: null, locked_until: new Date(0) }, Date.now())).toBe(true);
  });
});

describe.runIf(!usingPostgres)('PGlite: a start abandons the claims left in the data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mkt-claims-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('unanswered claims are deleted when the process opens the files; answered keys stay', async () => {
    const config = testConfig({ DATA_DIR: dir });
    const first = await createServices(config, { clock });
    const now = new Date(clock.nowMs());
    await first.db.query(
      `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, locked_until, created_at, response_status, response_body)
       VALUES ('mkt_x', 'test', 'running', 'f', $1, $1, NULL, NULL), ('mkt_x', 'test', 'answered', 'f', NULL, $1, 201, '{}')`,
      [now],
    );
    await closeServices(first);
    const second = await createServices(config, { clock });
    try {
      const rows = await second.db.query<{ key: string }>("SELECT key FROM idempotency_keys WHERE marketplace_id = 'mkt_x' ORDER BY key");
      expect(rows.map((row) => row.key)).toEqual(['answered']);
    } finally {
      await closeServices(second);
    }
  }, 60_000);
});
