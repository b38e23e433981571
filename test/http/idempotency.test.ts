// Idempotency-Key through the real app: replays, reuse with another
// request, a duplicate while the first runs, a failure between commit and answer, what is and is
// not remembered, 24-hour retention, and the key's scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { FastifyRequest } from 'fastify';
import { fingerprint, IDEMPOTENCY_RETENTION_MS, purgeIdempotencyKeys } from '../../src/http/idempotency.js';
import { startTestApp, usingPostgres, type TestContext } from '../helpers/harness.js';
import { deferred, fixtureControl, fixtureRoutes } from './fixtures.js';

const clock = new ManualClock();
const control = fixtureControl();
let failAfterCommit = false;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({
    clock,
    routes: fixtureRoutes(control),
    faults: {
      afterCommit: () => {
        if (!failAfterCommit) return;
        failAfterCommit = false;
        throw new Error('connection reset after COMMIT');
      },
    },
  });
});
afterAll(() => ctx.close());

let seq = 0;
const uniqueKey = () => `key-${Date.now().toString(36)}-${++seq}`;

function post(body: unknown, key: string | null, apiKey?: string, path = '/v1/_test/widgets') {
  return ctx.request(path, { method: 'POST', body, key: apiKey, headers: key === null ? {} : { 'idempotency-key': key } });
}

/** The fingerprint a POST of this body to the widgets route has. */
function sameRequest(body: unknown): string {
  return fingerprint({ method: 'POST', url: '/v1/_test/widgets', body } as FastifyRequest);
}

async function writesNamed(name: string): Promise<number> {
  const [row] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE data->'object'->>'name' = $1`, [name]);
  return row!.n;
}

describe('replay', () => {
  it('answers the first status and body with Idempotent-Replayed: true, and writes once', async () => {
    const key = uniqueKey();
    const first = await post({ name: 'replay-me' }, key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await post({ name: 'replay-me' }, key);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    expect(second.headers['request-id']).not.toBe(first.headers['request-id']);
    expect(second.headers['original-request']).toBe(first.headers['request-id']);
    expect(first.headers['original-request']).toBeUndefined();
    expect(await writesNamed('replay-me')).toBe(1);
  });

  it('without a key, the same request runs twice', async () => {
    await post({ name: 'no-key' }, null);
    await post({ name: 'no-key' }, null);
    expect(await writesNamed('no-key')).toBe(2);
  });
});

describe('reuse', () => {
  it('the same key with another body answers 409 idempotency_key_reused', async () => {
    const key = uniqueKey();
    expect((await post({ name: 'first' }, key)).status).toBe(201);
    const other = await post({ name: 'second' }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    expect(await writesNamed('second')).toBe(0);
  });

  it('the same body with its fields in another order is the same request: it replays', async () => {
    const key = uniqueKey();
    const first = await post({ name: 'ordered', count: 2, metadata: { a: '1', b: '2' } }, key);
    expect(first.status).toBe(201);
    const again = await post({ metadata: { b: '2', a: '1' }, count: 2, name: 'ordered' }, key);
    expect(again.status, again.text).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await writesNamed('ordered')).toBe(1);
  });

  it('the same key on another path answers 409 idempotency_key_reused', async () => {
    const key = uniqueKey();
    expect((await post({ name: 'path' }, key)).status).toBe(201);
    const other = await post({}, key, undefined, '/v1/_test/explode');
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('a duplicate while the first request runs', () => {
  // On PostgreSQL the claim row is committed before the handler's transaction opens, so the
  // duplicate sees a claimed key without a response and is refused at once.
  it.runIf(usingPostgres)('answers 409 idempotency_key_in_use (PostgreSQL: real concurrency)', async () => {
    const key = uniqueKey();
    const gate = deferred();
    const entered = deferred();
    control.gate = { entered: entered.resolve, wait: gate.promise };
    try {
      const first = post({ name: 'slow' }, key);
      await entered.promise;
      control.gate = null;
      const duplicate = await post({ name: 'slow' }, key);
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error.code).toBe('idempotency_key_in_use');
      gate.resolve();
      expect((await first).status).toBe(201);
    } finally {
      control.gate = null;
      gate.resolve();
    }
    const replay = await post({ name: 'slow' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await writesNamed('slow')).toBe(1);
  });

  // PGlite has one connection: the handler's open transaction holds it, so the duplicate's claim
  // cannot even read the key until the first commits. It waits, then replays: still exactly once.
  it.runIf(!usingPostgres)('waits for the first and replays its answer (PGlite: one connection serialises)', async () => {
    const key = uniqueKey();
    const gate = deferred();
    const entered = deferred();
    control.gate = { entered: entered.resolve, wait: gate.promise };
    try {
      const first = post({ name: 'slow' }, key);
      await entered.promise;
      control.gate = null;
      const duplicate = post({ name: 'slow' }, key);
      gate.resolve();
      const [a, b] = await Promise.all([first, duplicate]);
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(b.text).toBe(a.text);
    } finally {
      control.gate = null;
      gate.resolve();
    }
    expect(await writesNamed('slow')).toBe(1);
  });

  // The claim as another process holding it would leave it: locked, no response yet.
  it('a key claimed elsewhere and not answered yet answers 409 idempotency_key_in_use (both databases)', async () => {
    const key = uniqueKey();
    const now = clock.nowMs();
    await ctx.db.query(
      `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, locked_until, created_at)
       VALUES ($1, 'test', $2, $3, $4, $5)`,
      [ctx.marketplaceId, key, sameRequest({ name: 'claimed' }), new Date(now + 30_000), new Date(now)],
    );
    const res = await post({ name: 'claimed' }, key);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_key_in_use');
  });

  // Claims from before migration 0020 name no owner: on PostgreSQL they lapse at locked_until as
  // they did; on PGlite only a start abandons a claim (test/http/claim-owners.test.ts).
  it.runIf(usingPostgres)('a claim without an owner runs anew once its lock lapses (PostgreSQL)', async () => {
    const key = uniqueKey();
    const now = clock.nowMs();
    await ctx.db.query(
      `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, locked_until, created_at)
       VALUES ($1, 'test', $2, 'dead', $3, $4)`,
      [ctx.marketplaceId, key, new Date(now - 1), new Date(now - 120_000)],
    );
    const res = await post({ name: 'taken-over' }, key);
    expect(res.status).toBe(201);
    expect(await writesNamed('taken-over')).toBe(1);
  });

  it.runIf(!usingPostgres)('a claim in the database this process opened stays in use, lock lapsed or not (PGlite)', async () => {
    const key = uniqueKey();
    const now = clock.nowMs();
    await ctx.db.query(
      `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, locked_until, created_at)
       VALUES ($1, 'test', $2, $3, $4, $5)`,
      [ctx.marketplaceId, key, sameRequest({ name: 'kept' }), new Date(now - 1), new Date(now - 120_000)],
    );
    const res = await post({ name: 'kept' }, key);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_key_in_use');
  });
});

describe('a failure between commit and answer', () => {
  it('answers 500; the retry replays the committed result and the change happened once', async () => {
    const key = uniqueKey();
    failAfterCommit = true;
    const lost = await post({ name: 'lost-answer' }, key);
    expect(lost.status).toBe(500);
    expect(lost.body.error.code).toBe('internal_error');
    expect(await writesNamed('lost-answer')).toBe(1);

    const retry = await post({ name: 'lost-answer' }, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toMatchObject({ object: 'widget', name: 'lost-answer' });
    // The request that ran is the one whose answer was lost.
    expect(retry.headers['original-request']).toBe(lost.headers['request-id']);
    const [row] = await ctx.db.query<{ id: string }>(`SELECT id FROM events WHERE data->'object'->>'name' = 'lost-answer'`);
    expect(retry.body.id).toBe(row!.id);
    expect(await writesNamed('lost-answer')).toBe(1);
  });

  it('holds for a handler that calls reply.send() itself', async () => {
    const key = uniqueKey();
    failAfterCommit = true;
    const lost = await post({ name: 'self-sent' }, key, undefined, '/v1/_test/sends-itself');
    expect(lost.status).toBe(500);
    const retry = await post({ name: 'self-sent' }, key, undefined, '/v1/_test/sends-itself');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toMatchObject({ object: 'widget', name: 'self-sent' });
    expect(await writesNamed('self-sent')).toBe(1);
    const plain = await post({ name: 'self-sent-no-key' }, null, undefined, '/v1/_test/sends-itself');
    expect(plain.status).toBe(201);
    expect(plain.body.name).toBe('self-sent-no-key');
  });

  it('a handler that fails before commit leaves nothing and the retry runs anew', async () => {
    const key = uniqueKey();
    const failed = await post({}, key, undefined, '/v1/_test/explode');
    expect(failed.status).toBe(500);
    const [row] = await ctx.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
    expect(row).toBeUndefined();
  });
});

describe('what is remembered', () => {
  it('a 400 from validation is not stored: the corrected body under the same key runs', async () => {
    const key = uniqueKey();
    const bad = await post({ name: 'fixed', count: 'three' }, key);
    expect(bad.status).toBe(400);
    const good = await post({ name: 'fixed', count: 3 }, key);
    expect(good.status).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a 400 thrown by the operation is not stored and its write is rolled back', async () => {
    const key = uniqueKey();
    const bad = await post({ name: 'invalid' }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('name');
    expect(await writesNamed('invalid')).toBe(0);
    const good = await post({ name: 'valid-now' }, key);
    expect(good.status).toBe(201);
  });

  it.each([
    ['missing', 404, 'resource_missing'],
    ['conflict', 409, 'invalid_state'],
  ])('a %s answer is stored and replayed, and its write rolled back', async (name, status, errorCode) => {
    const key = uniqueKey();
    const first = await post({ name }, key);
    expect(first.status).toBe(status);
    expect(first.body.error.code).toBe(errorCode);
    const again = await post({ name }, key);
    expect(again.status).toBe(status);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The replay is a request of its own: its Request-Id is the body's request_id; Original-Request
    // names the first.
    expect(again.body).toEqual({ error: { ...first.body.error, request_id: again.headers['request-id'] } });
    expect(again.headers['request-id']).not.toBe(first.headers['request-id']);
    expect(again.headers['original-request']).toBe(first.headers['request-id']);
    expect(first.body.error.request_id).toBe(first.headers['request-id']);
    expect(await writesNamed(name)).toBe(0);
  });

  it('a key stored before its request id was kept replays with the id its stored body names', async () => {
    const key = uniqueKey();
    const first = await post({ name: 'missing' }, key);
    await ctx.db.query('UPDATE idempotency_keys SET request_id = NULL WHERE key = $1', [key]);
    const again = await post({ name: 'missing' }, key);
    expect(again.headers['original-request']).toBe(first.headers['request-id']);
    expect(again.body.error.request_id).toBe(again.headers['request-id']);
  });
});

describe('retention', () => {
  it('keys are kept 24 hours, purged after, and the same key then runs anew', async () => {
    const key = uniqueKey();
    expect((await post({ name: 'old-1' }, key)).status).toBe(201);
    clock.advance(IDEMPOTENCY_RETENTION_MS - 1000);
    await purgeIdempotencyKeys(ctx.db, clock.nowMs());
    expect((await post({ name: 'old-1' }, key)).headers['idempotent-replayed']).toBe('true');

    clock.advance(2000);
    expect(await purgeIdempotencyKeys(ctx.db, clock.nowMs())).toBeGreaterThanOrEqual(1);
    const [row] = await ctx.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
    expect(row).toBeUndefined();
    const fresh = await post({ name: 'old-2' }, key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('an expired key not yet purged also runs anew', async () => {
    const key = uniqueKey();
    expect((await post({ name: 'stale-1' }, key)).status).toBe(201);
    clock.advance(IDEMPOTENCY_RETENTION_MS + 1000);
    const fresh = await post({ name: 'stale-2' }, key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await writesNamed('stale-2')).toBe(1);
  });
});

describe('scope and format', () => {
  it('a key is per marketplace and mode: the same key under the live key runs anew', async () => {
    const key = uniqueKey();
    const test = await post({ name: 'per-mode' }, key);
    const live = await post({ name: 'per-mode' }, key, ctx.keys.live.secret_key);
    expect(test.status).toBe(201);
    expect(live.status).toBe(201);
    expect(live.headers['idempotent-replayed']).toBeUndefined();
    expect(live.body.id).not.toBe(test.body.id);
  });

  it.each([
    ['too long', 'k'.repeat(256)],
    ['with a space', 'a key'],
    ['empty', ''],
  ])('an Idempotency-Key %s answers 400 naming the header', async (_name, key) => {
    const res = await post({ name: 'bad-key' }, key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.param).toBe('Idempotency-Key');
    expect(await writesNamed('bad-key')).toBe(0);
  });

  it('a 255-character key is accepted', async () => {
    expect((await post({ name: 'long-key' }, 'k'.repeat(255))).status).toBe(201);
  });
});
