// Rate limits: a token bucket per key at the mode's rate_limit_per_second with a
// burst of twice that; 429 rate_limited with Retry-After. In memory, and shared through Redis by
// several API processes when REDIS_URL is set.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createApp, createServices } from '../../src/app/runtime.js';
import type { App, Services } from '../../src/contracts/wiring.js';
import { RedisRateLimiter } from '../../src/http/rate-limit.js';
import { startTestApp, testConfig, type TestContext } from '../helpers/harness.js';
import { redisAvailable, redisUrl } from '../helpers/servers.js';

const REDIS_URL = redisUrl ?? '';

describe('in memory', () => {
  const clock = new ManualClock();
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp({ defaultRateLimits: true, clock });
  });
  afterAll(() => ctx.close());

  it('allows a burst of 2 × 25, then answers 429 rate_limited with Retry-After ≥ 1', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await ctx.request('/v1/marketplace')).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await ctx.request('/v1/marketplace');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(String(limited.headers['retry-after'])).toMatch(/^\d+$/);
    expect(limited.headers['request-id']).toMatch(/^req_/);
  });

  it('refills as the clock moves: 25 tokens a second', async () => {
    clock.advance(200); // 5 tokens
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await ctx.request('/v1/marketplace')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    clock.advance(10_000); // back to a full bucket, never more
    let allowed = 0;
    while ((await ctx.request('/v1/marketplace')).status === 200) allowed++;
    expect(allowed).toBe(50);
  });

  it('is per key: another key of the same mode has its own bucket', async () => {
    expect((await ctx.request('/v1/marketplace')).status).toBe(429);
    expect((await ctx.request('/v1/marketplace', { key: ctx.keys.test.publishable_key })).status).not.toBe(429);
    expect((await ctx.request('/v1/marketplace', { key: ctx.keys.live.secret_key })).status).toBe(200);
  });

  it('live mode runs at its own default, 100 a second (burst 200)', async () => {
    clock.advance(10_000);
    let allowed = 0;
    while ((await ctx.request('/v1/marketplace', { key: ctx.keys.live.secret_key })).status === 200) allowed++;
    expect(allowed).toBe(200);
  });

  it('invalid keys are refused before they cost anyone a token', async () => {
    clock.advance(10_000);
    for (let i = 0; i < 60; i++) expect((await ctx.request('/v1/marketplace', { key: 'sk_test_nope' })).status).toBe(401);
    expect((await ctx.request('/v1/marketplace')).status).toBe(200);
  });
});

describe.runIf(redisAvailable)('in Redis, shared by two API processes', () => {
  const clock = new ManualClock();
  let ctx: TestContext;
  let second: { services: Services; app: App };
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    ctx = await startTestApp({ defaultRateLimits: true, clock, env: { REDIS_URL } });
    // A second API process: its own services and app, on the same database and the same Redis.
    const services = await createServices(testConfig({ REDIS_URL }), { clock, db: ctx.db });
    const app = await createApp(services, { logger: false });
    await app.ready();
    second = { services, app };
    // On a loaded machine the connection can take longer than the limiter's start-up wait, and a
    // request before it fails open without taking a token: the counts below need both connected.
    for (const limiter of [ctx.services.rateLimiter, services.rateLimiter]) {
      expect(limiter).toBeInstanceOf(RedisRateLimiter);
      await (limiter as RedisRateLimiter).connected();
    }
  });

  afterAll(async () => {
    const ids = await ctx.db.query<{ id: string }>('SELECT id FROM api_keys WHERE marketplace_id = $1', [ctx.marketplaceId]);
    if (ids.length > 0) await redis.del(...ids.map((row) => `mkt:rl:${row.id}`));
    await redis.quit();
    await second.app.close();
    await second.services.rateLimiter.close();
    await ctx.close();
  });

  const viaSecond = async (key = ctx.keys.test.secret_key) =>
    (await second.app.inject({ method: 'GET', url: '/v1/marketplace', headers: { authorization: `Bearer ${key}` } })).statusCode;

  it('requests split across both hit 429 at the shared limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push(i % 2 === 0 ? (await ctx.request('/v1/marketplace')).status : await viaSecond());
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(await viaSecond()).toBe(429);
    const first = await ctx.request('/v1/marketplace');
    expect(first.status).toBe(429);
    expect(first.body.error.code).toBe('rate_limited');
    expect(Number(first.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('the shared bucket refills with the clock, and keys do not share', async () => {
    expect(await viaSecond(ctx.keys.live.secret_key)).toBe(200);
    clock.advance(120); // 3 tokens at 25/s
    const statuses = [(await ctx.request('/v1/marketplace')).status, await viaSecond(), (await ctx.request('/v1/marketplace')).status, await viaSecond()];
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('stores the bucket in Redis with an expiry, under the key id', async () => {
    const [row] = await ctx.db.query<{ id: string }>(
      `SELECT id FROM api_keys WHERE marketplace_id = $1 AND mode = 'test' AND type = 'secret'`,
      [ctx.marketplaceId],
    );
    const ttl = await redis.pttl(`mkt:rl:${row!.id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3000);
  });
});

describe('with Redis unreachable', () => {
  it('fails open: requests are served and the error is reported', async () => {
    const reported: unknown[] = [];
    const ctx = await startTestApp({ defaultRateLimits: true, env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const services = await createServices(testConfig({ REDIS_URL: 'redis://127.0.0.1:1' }), {
        clock: ctx.services.clock,
        db: ctx.db,
        onBackgroundError: (error) => reported.push(error),
      });
      const app = await createApp(services, { logger: false });
      const res = await app.inject({ method: 'GET', url: '/v1/marketplace', headers: { authorization: `Bearer ${ctx.keys.test.secret_key}` } });
      expect(res.statusCode).toBe(200);
      expect(reported.length).toBeGreaterThan(0);
      await app.close();
      await services.rateLimiter.close();
    } finally {
      await ctx.close();
    }
  });
});
