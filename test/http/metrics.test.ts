// GET /metrics: Prometheus text for the operator's token only; request durations by route pattern
// and status, database connections, background work by kind, process metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register as globalRegistry } from 'prom-client';
import { ManualClock } from '../../src/clock.js';
import { queueEmail } from '../../src/modules/emails/outbox.js';
import { scheduleTimer } from '../../src/workers/timers.js';
import { backgroundWorkStats } from '../../src/workers/stats.js';
import { insertDeliveries, insertEndpoint } from '../../src/modules/webhooks/queries.js';
import { startTestApp, usingPostgres, type TestContext } from '../helpers/harness.js';

const OPERATOR_TOKEN = 'operator-token-for-metrics-tests';
const clock = new ManualClock();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ clock, env: { OPERATOR_TOKEN } });
});
afterAll(() => ctx.close());

const scrape = async (c: TestContext = ctx) => {
  const res = await c.request('/metrics', { key: OPERATOR_TOKEN });
  expect(res.status).toBe(200);
  return res.text;
};

/** The value of one series, or undefined when the text has no such series. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{([^}]*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) return Number(line.split(' ').pop());
  }
  return undefined;
}

describe('access', () => {
  it('answers 401 authentication_required without the operator token, or with another one', async () => {
    for (const key of [null, 'not-the-operator-token-at-all', ctx.keys.test.secret_key]) {
      const res = await ctx.request('/metrics', { key });
      expect(res.status, String(key)).toBe(401);
      expect(res.body.error.code).toBe('authentication_required');
      expect(res.body.error.request_id).toBe(res.headers['request-id']);
    }
  });

  it('answers 401 naming OPERATOR_TOKEN when the service runs without one', async () => {
    const bare = await startTestApp();
    try {
      const res = await bare.request('/metrics', { key: OPERATOR_TOKEN });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('authentication_required');
      expect(res.body.error.message).toContain('OPERATOR_TOKEN');
    } finally {
      await bare.close();
    }
  });

  it('answers Prometheus text to the operator token, outside the OpenAPI document', async () => {
    const res = await ctx.request('/metrics', { key: OPERATOR_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['request-id']).toMatch(/^req_/);
    const document = await ctx.request('/v1/openapi.json', { key: null });
    expect(Object.keys(document.body.paths)).not.toContain('/metrics');
  });
});

describe('contents', () => {
  it('times requests by method, route pattern and status, never by raw URL', async () => {
    expect((await ctx.request('/v1/sellers/sel_metricsprobe0000000000000000')).status).toBe(404);
    expect((await ctx.request('/v1/no/such/route/metricsprobe')).status).toBe(404);
    expect((await ctx.request('/v1/marketplace')).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/v1/sellers/:id', status: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/v1/marketplace', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('metricsprobe');
    expect(sample(text, 'http_request_duration_seconds_bucket', { route: '/v1/sellers/:id', le: '+Inf' })).toBe(1);
  });

  it('reports the database connections', async () => {
    const text = await scrape();
    const max = sample(text, 'db_pool_connections', { state: 'max' });
    expect(max).toBe(usingPostgres ? 5 : 1);
    expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeLessThanOrEqual(max!);
    expect(sample(text, 'db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'db_transactions_open')).toBe(0);
  });

  it('reports process metrics on its own registry, not the global one', async () => {
    const text = await scrape();
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_total_bytes')).toBeGreaterThan(0);
    expect(globalRegistry.getMetricsAsArray()).toHaveLength(0);
  });

  it('reports background work by kind: timers on their mode’s clock, and the email jobs', async () => {
    const test = { marketplaceId: ctx.marketplaceId, mode: 'test' as const };
    const live = { marketplaceId: ctx.marketplaceId, mode: 'live' as const };
    // The test mode runs an hour ahead: a timer 10 minutes ahead of real time is 50 minutes due there.
    await ctx.db.query(`UPDATE marketplace_modes SET clock_offset_ms = 3600000 WHERE marketplace_id = $1 AND mode = 'test'`, [ctx.marketplaceId]);
    await ctx.db.transaction(async (tx) => {
      await scheduleTimer(tx, test, 'metrics.probe', 'a', new Date(clock.nowMs() + 600_000));
      await scheduleTimer(tx, live, 'metrics.probe', 'b', new Date(clock.nowMs() - 30_000));
      await scheduleTimer(tx, live, 'metrics.probe', 'c', new Date(clock.nowMs() + 60_000));
      await scheduleTimer(tx, live, 'metrics.later', 'd', new Date(clock.nowMs() + 60_000));
      await queueEmail(tx, ctx.workspaceId, ['a@example.com'], 'Queued', 'text', new Date(clock.nowMs() - 120_000));
      await queueEmail(tx, ctx.workspaceId, ['b@example.com'], 'Failed', 'text', new Date(clock.nowMs() - 120_000));
    });
    // A timer that used up its attempts stays as failed; so does an email job.
    await ctx.db.query(`UPDATE timers SET status = 'failed' WHERE kind = 'metrics.probe' AND subject_id = 'b'`);
    await ctx.db.query(
      `UPDATE jobs SET status = 'failed', failed_at = now() WHERE kind = 'email.send'
          AND subject_id = (SELECT id FROM emails WHERE subject = 'Failed')`,
    );

    const text = await scrape();
    // Timers are reported as timer:<kind>; a failed one no longer waits, so it is not queued.
    expect(sample(text, 'background_work_queued', { kind: 'timer:metrics.probe' })).toBe(2);
    expect(sample(text, 'background_work_failed', { kind: 'timer:metrics.probe' })).toBe(1);
    expect(sample(text, 'background_work_in_flight', { kind: 'timer:metrics.probe' })).toBe(0);
    expect(sample(text, 'background_work_oldest_due_age_seconds', { kind: 'timer:metrics.probe' })).toBe(3000);
    expect(sample(text, 'background_work_queued', { kind: 'timer:metrics.later' })).toBe(1);
    expect(sample(text, 'background_work_oldest_due_age_seconds', { kind: 'timer:metrics.later' })).toBe(0);
    expect(sample(text, 'background_work_queued', { kind: 'email.send' })).toBe(1);
    expect(sample(text, 'background_work_failed', { kind: 'email.send' })).toBe(1);
    expect(sample(text, 'background_work_oldest_due_age_seconds', { kind: 'email.send' })).toBe(120);
    expect(sample(text, 'background_work_stats_up')).toBe(1);

    // Work that is done leaves the figures.
    await ctx.db.query(`DELETE FROM timers WHERE kind = 'metrics.later'`);
    expect(sample(await scrape(), 'background_work_queued', { kind: 'timer:metrics.later' })).toBeUndefined();
  });

  it('counts a job under a live lease as in flight, and not once its lease ran out', async () => {
    await ctx.db.transaction((tx) => queueEmail(tx, ctx.workspaceId, ['c@example.com'], 'Leased', 'text', new Date(clock.nowMs())));
    const leased = `subject_id = (SELECT id FROM emails WHERE subject = 'Leased')`;
    await ctx.db.query(`UPDATE jobs SET status = 'running', locked_by = 'w1', locked_until = $1 WHERE ${leased}`, [new Date(clock.nowMs() + 60_000)]);
    const stats = await backgroundWorkStats(ctx.db, clock.nowMs());
    expect(stats.find((kind) => kind.kind === 'email.send')?.inFlight).toBe(1);
    expect(sample(await scrape(), 'background_work_in_flight', { kind: 'email.send' })).toBe(1);
    await ctx.db.query(`UPDATE jobs SET locked_until = $1 WHERE ${leased}`, [new Date(clock.nowMs() - 1_000)]);
    expect(sample(await scrape(), 'background_work_in_flight', { kind: 'email.send' })).toBe(0);
  });

  it('reports the webhook deliveries still to make as webhook_delivery', async () => {
    const live = { marketplaceId: ctx.marketplaceId, mode: 'live' as const };
    const due = new Date(clock.nowMs() - 90_000);
    await ctx.db.transaction(async (tx) => {
      const endpoint = { id: 'whe_metrics', url: 'https://example.com/hook', description: null, enabledEvents: ['*'], secretEnc: 'x', rateLimitPerSecond: null, ordering: 'none' as const, metadata: {} };
      await insertEndpoint(tx, live, endpoint, due);
      await insertDeliveries(
        tx,
        live,
        ['a', 'b', 'c', 'd'].map((n) => ({ id: `whd_metrics_${n}`, endpointId: 'whe_metrics', eventId: `evt_${n}`, eventType: 'seller.created', replayOf: null, objectId: null, body: '{}' })),
        due,
      );
    });
    // b is being attempted (a live lease), c waits for its retry after a failed attempt, d is done.
    await ctx.db.query(`UPDATE webhook_deliveries SET locked_by = 'w1', locked_until = $1 WHERE id = 'whd_metrics_b'`, [new Date(clock.nowMs() + 30_000)]);
    await ctx.db.query(`UPDATE webhook_deliveries SET attempts = 1, next_attempt_at = $1 WHERE id = 'whd_metrics_c'`, [new Date(clock.nowMs() + 60_000)]);
    await ctx.db.query(`UPDATE webhook_deliveries SET status = 'succeeded', attempts = 1, next_attempt_at = NULL WHERE id = 'whd_metrics_d'`);
    const text = await scrape();
    expect(sample(text, 'background_work_queued', { kind: 'webhook_delivery' })).toBe(3);
    expect(sample(text, 'background_work_in_flight', { kind: 'webhook_delivery' })).toBe(1);
    expect(sample(text, 'background_work_failed', { kind: 'webhook_delivery' })).toBe(1);
    // a has waited 90 s; b is under its lease and does not count.
    expect(sample(text, 'background_work_oldest_due_age_seconds', { kind: 'webhook_delivery' })).toBe(90);

    // Nothing left to deliver: the kind leaves the figures.
    await ctx.db.query(`UPDATE webhook_deliveries SET status = 'succeeded', next_attempt_at = NULL, locked_by = NULL, locked_until = NULL WHERE endpoint_id = 'whe_metrics'`);
    expect(sample(await scrape(), 'background_work_queued', { kind: 'webhook_delivery' })).toBeUndefined();
  });

  it('keeps each app’s figures apart', async () => {
    const other = await startTestApp({ env: { OPERATOR_TOKEN } });
    try {
      const text = await scrape(other);
      expect(sample(text, 'http_request_duration_seconds_count', { route: '/v1/sellers/:id' })).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
