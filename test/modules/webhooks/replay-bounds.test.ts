// Replay is bounded by construction (issue 33): each test is the request sequence a hostile
// tenant would send, through the HTTP API. At most one new delivery per (endpoint, event) per
// replay and none while the event has a pending delivery to the endpoint; pending deliveries per
// endpoint bounded (409 limit_exceeded for a replay, failed `pending_limit_exceeded` deliveries for
// new events, counted in GET /metrics); the replay routes rate limited per mode (429).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import { updatePendingFull } from '../../../src/modules/webhooks/queries.js';
import { createSeller, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { createEndpoint, deliverDue } from './helpers.js';

const BOUND = 8;
const OPERATOR_TOKEN = 'operator-token-for-replay-bound-tests';
let ctx: TestContext;

/** A loopback port nobody listens on: every attempt to it is refused at once. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

beforeAll(async () => {
  // The replays' rate limit is its own test's (its own app, below): here replays come faster than 5 a second on a quick machine.
  ctx = await startTestApp({ env: { MAX_PENDING_WEBHOOK_DELIVERIES: String(BOUND), OPERATOR_TOKEN, WEBHOOK_REPLAYS_PER_SECOND: '1000' } });
});
afterAll(async () => {
  await ctx.services.background.loop(DISPATCHER).stop(0);
  await ctx.close();
});

async function setStatus(c: TestContext, id: string, status: 'enabled' | 'disabled'): Promise<void> {
  const res = await c.request(`/v1/webhook_endpoints/${id}`, { method: 'PATCH', body: { status } });
  expect(res.status, res.text).toBe(200);
}

/** Every delivery to the endpoint, through the API's paging. */
async function allDeliveries(c: TestContext, endpointId: string): Promise<Json[]> {
  const all: Json[] = [];
  let after = '';
  for (;;) {
    const res = await c.request(`/v1/webhook_deliveries?endpoint=${endpointId}&limit=100${after}`);
    expect(res.status, res.text).toBe(200);
    all.push(...res.body.data);
    if (!res.body.has_more) return all;
    after = `&starting_after=${res.body.data.at(-1).id}`;
  }
}

function countByEvent(deliveries: readonly Json[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of deliveries) counts.set(d.event, (counts.get(d.event) ?? 0) + 1);
  return counts;
}

describe('replay_failed, repeated by a hostile tenant', () => {
  it('six cycles of "enable, replay_failed, disable" over 5 events leave at most 5 × 7 deliveries', async () => {
    const endpoint = await createEndpoint(ctx, { url: await closedPortUrl(), enabled_events: ['seller.created'] });
    for (let i = 0; i < 5; i++) await createSeller(ctx);
    await deliverDue(ctx); // each first attempt is refused: pending, waiting for its retry
    await setStatus(ctx, endpoint.id, 'disabled'); // disabling fails the pending deliveries at once
    for (let cycle = 0; cycle < 6; cycle++) {
      await setStatus(ctx, endpoint.id, 'enabled');
      const res = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}/replay_failed`, { method: 'POST' });
      expect(res.status, res.text).toBe(200);
      // Each of the 5 events once, however many failed deliveries it has by now.
      expect(res.body.replayed).toBe(5);
      // Calling again at once writes nothing: every event has its pending delivery.
      const again = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}/replay_failed`, { method: 'POST' });
      expect(again.body.replayed).toBe(0);
      await deliverDue(ctx);
      await setStatus(ctx, endpoint.id, 'disabled');
    }
    const deliveries = await allDeliveries(ctx, endpoint.id);
    expect(deliveries.length).toBeLessThanOrEqual(5 * 7);
    expect([...countByEvent(deliveries).values()]).toEqual(Array(5).fill(7));
    expect(deliveries.every((d) => d.status === 'failed')).toBe(true);
  });

  it('replays an event once per call, whatever the number of its failed deliveries', async () => {
    const endpoint = await createEndpoint(ctx, { url: await closedPortUrl(), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await setStatus(ctx, endpoint.id, 'disabled');
    for (let i = 0; i < 3; i++) {
      await setStatus(ctx, endpoint.id, 'enabled');
      const [failed] = (await allDeliveries(ctx, endpoint.id)).filter((d) => d.status === 'failed');
      expect((await ctx.request(`/v1/webhook_deliveries/${failed!.id}/replay`, { method: 'POST' })).status).toBe(201);
      await setStatus(ctx, endpoint.id, 'disabled');
    }
    await setStatus(ctx, endpoint.id, 'enabled');
    const before = await allDeliveries(ctx, endpoint.id);
    expect(before.filter((d) => d.status === 'failed')).toHaveLength(4);
    const res = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}/replay_failed`, { method: 'POST' });
    expect(res.body.replayed).toBe(1);
    const replay = (await allDeliveries(ctx, endpoint.id)).find((d) => d.status === 'pending')!;
    // replay_of names the event's latest failed delivery; the body is the event's, like every other.
    expect(replay.replay_of).toBe(before.filter((d) => d.status === 'failed')[0]!.id);
    expect(replay.request.body).toBe(before[0]!.request.body);
    await setStatus(ctx, endpoint.id, 'disabled');
  });
});

describe('a single replay while the event is pending', () => {
  it('answers the pending delivery (200), made due now, instead of writing another', async () => {
    const endpoint = await createEndpoint(ctx, { url: await closedPortUrl(), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    const [pending] = await allDeliveries(ctx, endpoint.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(Date.parse(pending!.next_attempt_at)).toBeGreaterThan(Date.now());
    const answers = await Promise.all(Array.from({ length: 3 }, () => ctx.request(`/v1/webhook_deliveries/${pending!.id}/replay`, { method: 'POST' })));
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: pending!.id, status: 'pending', replay_of: null });
    }
    // Made due now: its next attempt no longer waits for the retry schedule.
    expect(Date.parse(answers[2]!.body.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(await allDeliveries(ctx, endpoint.id)).toHaveLength(1);
    await setStatus(ctx, endpoint.id, 'disabled');
  });

  it('answers the pending replay when the original failed and was replayed already', async () => {
    const endpoint = await createEndpoint(ctx, { url: await closedPortUrl(), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await setStatus(ctx, endpoint.id, 'disabled');
    await setStatus(ctx, endpoint.id, 'enabled');
    const [failed] = await allDeliveries(ctx, endpoint.id);
    const first = await ctx.request(`/v1/webhook_deliveries/${failed!.id}/replay`, { method: 'POST' });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ replay_of: failed!.id, status: 'pending', event: failed!.event });
    const second = await ctx.request(`/v1/webhook_deliveries/${failed!.id}/replay`, { method: 'POST' });
    expect(second.status, second.text).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(await allDeliveries(ctx, endpoint.id)).toHaveLength(2);
    await setStatus(ctx, endpoint.id, 'disabled');
  });
});

describe('the bound of pending deliveries per endpoint', () => {
  it('refuses a replay past it with 409 limit_exceeded, after writing what fits', async () => {
    const endpoint = await createEndpoint(ctx, { url: await closedPortUrl(), enabled_events: ['seller.created'] });
    for (let i = 0; i < BOUND + 3; i++) await createSeller(ctx);
    await setStatus(ctx, endpoint.id, 'disabled');
    await setStatus(ctx, endpoint.id, 'enabled');
    const failed = await allDeliveries(ctx, endpoint.id);
    const bulk = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}/replay_failed`, { method: 'POST' });
    expect(bulk.status, bulk.text).toBe(409);
    expect(bulk.body.error).toMatchObject({ code: 'limit_exceeded' });
    expect(bulk.body.error.message).toContain('MAX_PENDING_WEBHOOK_DELIVERIES');
    expect(bulk.body.error.message).toContain(`${BOUND} deliveries were replayed`);
    expect((await allDeliveries(ctx, endpoint.id)).filter((d) => d.status === 'pending')).toHaveLength(BOUND);

    const leftOut = failed[0]!; // newest first: the newest were left out (the oldest are replayed first)
    const single = await ctx.request(`/v1/webhook_deliveries/${leftOut.id}/replay`, { method: 'POST' });
    expect(single.status, single.text).toBe(409);
    expect(single.body.error).toMatchObject({ code: 'limit_exceeded' });
    expect((await allDeliveries(ctx, endpoint.id)).length).toBe(BOUND + 3 + BOUND);
    await setStatus(ctx, endpoint.id, 'disabled');
  });

  it("writes a new event's delivery to an endpoint at its bound failed (pending_limit_exceeded), listed, counted and replayable", async () => {
    const endpoint = await createEndpoint(ctx, { url: await closedPortUrl(), enabled_events: ['seller.created'] });
    for (let i = 0; i < BOUND; i++) await createSeller(ctx);
    // The worker's periodic check (webhook_pending_bound) marks the endpoint full.
    await updatePendingFull(ctx.db, BOUND);
    const seller = await createSeller(ctx);
    const deliveries = await allDeliveries(ctx, endpoint.id);
    expect(deliveries).toHaveLength(BOUND + 1);
    const refused = deliveries.find((d) => d.error === 'pending_limit_exceeded')!;
    expect(refused).toMatchObject({ status: 'failed', attempts: 0, next_attempt_at: null });
    expect(JSON.parse(refused.request.body).data.object.id).toBe(seller.id);
    const metrics = await ctx.request('/metrics', { key: OPERATOR_TOKEN });
    expect(metrics.text).toMatch(/webhook_deliveries_over_pending_bound\{mode="test"\} 1\b/);

    // Once the backlog is gone (here: disabled, then on again), the check clears the flag and the
    // refused delivery is replayed like any failed one.
    await setStatus(ctx, endpoint.id, 'disabled');
    await setStatus(ctx, endpoint.id, 'enabled');
    await updatePendingFull(ctx.db, BOUND);
    await createSeller(ctx);
    const after = await allDeliveries(ctx, endpoint.id);
    expect(after.filter((d) => d.status === 'pending')).toHaveLength(1);
    const replay = await ctx.request(`/v1/webhook_deliveries/${refused.id}/replay`, { method: 'POST' });
    expect(replay.status, replay.text).toBe(201);
    await setStatus(ctx, endpoint.id, 'disabled');
  });
});

describe('the replay routes are rate limited per mode', () => {
  it('answers 429 rate_limited with Retry-After past WEBHOOK_REPLAYS_PER_SECOND, single and bulk together', async () => {
    const limited = await startTestApp({ env: { WEBHOOK_REPLAYS_PER_SECOND: '1' } });
    try {
      const endpoint = await createEndpoint(limited, { url: await closedPortUrl(), enabled_events: ['seller.created'] });
      await createSeller(limited);
      const [delivery] = await allDeliveries(limited, endpoint.id);
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => limited.request(`/v1/webhook_deliveries/${delivery!.id}/replay`, { method: 'POST' })),
        ...Array.from({ length: 5 }, () => limited.request(`/v1/webhook_endpoints/${endpoint.id}/replay_failed`, { method: 'POST' })),
      ]);
      const refused = answers.filter((res) => res.status === 429);
      // A bucket of 2 that refills at 1 a second: most of 10 calls at once are refused.
      expect(refused.length).toBeGreaterThanOrEqual(5);
      expect(refused[0]!.body.error).toMatchObject({ code: 'rate_limited' });
      expect(refused[0]!.body.error.message).toContain('WEBHOOK_REPLAYS_PER_SECOND');
      expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Other routes of the mode are not held back by it.
      expect((await limited.request(`/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    } finally {
      await limited.services.background.loop(DISPATCHER).stop(0);
      await limited.close();
    }
  });
});
