// The hand-kept request histogram (src/http/request-durations.ts) renders the very text prom-client's
// Histogram renders for the same observations, so GET /metrics reads as it did.
import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { RequestDurations } from '../../src/http/request-durations.js';

const NAME = 'http_request_duration_seconds';
const HELP = 'Time from receiving a request to sending its answer, by method, route pattern and status.';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const observations: Array<[string, string, number, number]> = [
  ['GET', '/v1/marketplace', 200, 0.0004],
  ['GET', '/v1/marketplace', 200, 0.005],
  ['GET', '/v1/marketplace', 200, 0.0051],
  ['POST', '/v1/sellers', 201, 0.3],
  ['GET', '/v1/sellers/:id', 404, 12],
  ['GET', 'unmatched', 404, 0.02],
  ['GET', '/v1/marketplace', 429, 0.001],
];

describe('RequestDurations', () => {
  it('renders what prom-client renders for the same observations', async () => {
    const reference = new Registry();
    const histogram = new Histogram({ name: NAME, help: HELP, labelNames: ['method', 'route', 'status'], buckets: BUCKETS, registers: [reference] });
    const ours = new Registry();
    const durations = new RequestDurations(NAME, HELP, BUCKETS);
    ours.registerMetric(durations.asMetric());
    for (const [method, route, status, seconds] of observations) {
      histogram.observe({ method, route, status: String(status) }, seconds);
      durations.observe(method, route, status, seconds);
    }
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('renders no series before the first request, and none after a reset', async () => {
    const registry = new Registry();
    const durations = new RequestDurations(NAME, HELP, BUCKETS);
    registry.registerMetric(durations.asMetric());
    expect(await registry.metrics()).not.toContain(`${NAME}_count`);
    durations.observe('GET', '/healthz', 200, 0.001);
    expect(await registry.metrics()).toContain(`${NAME}_count{method="GET",route="/healthz",status="200"} 1`);
    durations.reset();
    expect(await registry.metrics()).not.toContain(`${NAME}_count`);
  });
});
