// Delivery controls under load: a burst of 50 updates to 5 objects from concurrent requests, fanned
// out to a per_object endpoint (whose receiver fails some first attempts, forcing retries), a
// rate-limited endpoint and a plain one, with two dispatcher loops (two workers) plus the test
// clock's. The ordered endpoint gets each object's events one at a time in creation order; the
// rate-limited one receives at its rate (real time: the pacing is real time); the plain one is not
// slowed by either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryDispatcher, type DeliveryDispatcher } from '../../../src/modules/webhooks/dispatcher.js';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import { createSeller, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { waitFor } from '../../workers/helpers.js';
import { advance, createEndpoint, deliveriesOf, startReceiver, type Receiver } from './helpers.js';

let ctx: TestContext;
let receiver: Receiver;
const workers: DeliveryDispatcher[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const worker of workers) await worker.stop(0);
  await ctx.services.background.loop(DISPATCHER).stop(0);
  await receiver.close();
  await ctx.close();
});

const RATE = 10;
const UPDATES = 50;
const OBJECTS = 5;

interface Seen {
  eventId: string;
  objectId: string;
  ok: boolean;
}

describe('webhook delivery controls', () => {
  it('orders per object through retries, paces the rate-limited endpoint, and does not slow the others', { timeout: 120_000 }, async () => {
    const seen: Seen[] = [];
    const openByObject = new Map<string, number>();
    let mostOpenPerObject = 0;
    const failedOnce = new Set<string>();
    receiver.on('/ordered', (_req, res, body) => {
      const event = JSON.parse(body) as { id: string; data: { object: { id: string; metadata: { n: string } } } };
      const objectId = event.data.object.id;
      const open = (openByObject.get(objectId) ?? 0) + 1;
      openByObject.set(objectId, open);
      mostOpenPerObject = Math.max(mostOpenPerObject, open);
      // Some first attempts fail: that event's retry waits a minute of the test clock, and the
      // object's later events must wait for it.
      const fail = Number(event.data.object.metadata.n) % 7 === 3 && !failedOnce.has(event.id);
      if (fail) failedOnce.add(event.id);
      setTimeout(() => {
        openByObject.set(objectId, (openByObject.get(objectId) ?? 1) - 1);
        seen.push({ eventId: event.id, objectId, ok: !fail });
        res.writeHead(fail ? 500 : 200).end(fail ? 'try again' : 'ok');
      }, 10);
    });
    const ordered = await createEndpoint(ctx, { url: receiver.url('/ordered'), enabled_events: ['seller.updated'], ordering: 'per_object' });
    const paced = await createEndpoint(ctx, { url: receiver.url('/paced'), enabled_events: ['seller.updated'], rate_limit_per_second: RATE });
    await createEndpoint(ctx, { url: receiver.url('/plain'), enabled_events: ['seller.updated'] });
    expect(ordered).toMatchObject({ ordering: 'per_object', rate_limit_per_second: null });
    expect(paced).toMatchObject({ ordering: 'none', rate_limit_per_second: RATE });

    const sellers: Array<{ id: string }> = [];
    for (let i = 0; i < OBJECTS; i++) sellers.push(await createSeller(ctx));
    for (let i = 0; i < 2; i++) {
      const worker = createDeliveryDispatcher(ctx.services, { maxPollMs: 20 });
      worker.start();
      workers.push(worker);
    }

    const updates = await Promise.all(
      Array.from({ length: UPDATES }, (_, n) =>
        ctx.request(`/v1/sellers/${sellers[n % OBJECTS]!.id}`, { method: 'PATCH', body: { metadata: { n: String(n) } } }),
      ),
    );
    for (const res of updates) expect(res.status, res.text).toBe(200);

    const arrivals = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => r.at);
    await waitFor(() => arrivals('/plain').length === UPDATES, 30_000);
    const plainLast = Math.max(...arrivals('/plain'));
    await waitFor(() => arrivals('/paced').length === UPDATES, 30_000);
    // When the dispatchers started each paced attempt (its mode clock did not move meanwhile).
    await waitFor(async () => (await deliveriesOf(ctx, paced.id)).every((d) => d.status === 'succeeded'), 10_000);
    const pacedStarts = (await deliveriesOf(ctx, paced.id)).map((d) => Date.parse(d.attempt_log[0].at)).sort((a, b) => a - b);

    // The retries are on the test clock: move it past each wait until every event got through.
    const giveUpAt = Date.now() + 60_000;
    while (seen.filter((s) => s.ok).length < UPDATES) {
      expect(Date.now()).toBeLessThan(giveUpAt);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await advance(ctx, 61);
    }

    // Per object: one attempt at a time, and the events in creation order (ids are time-ordered),
    // a failed one attempted again before the next.
    expect(failedOnce.size).toBeGreaterThanOrEqual(5);
    expect(mostOpenPerObject).toBe(1);
    const events = await ctx.request('/v1/events?type=seller.updated&limit=100');
    expect(events.status, events.text).toBe(200);
    for (const seller of sellers) {
      const created = (events.body.data as Json[]).filter((e) => e.data.object.id === seller.id).map((e) => e.id as string);
      created.sort();
      expect(created).toHaveLength(UPDATES / OBJECTS);
      const attempts = seen.filter((s) => s.objectId === seller.id);
      expect(attempts.filter((s) => s.ok).map((s) => s.eventId)).toEqual(created);
      const order = attempts.map((s) => created.indexOf(s.eventId));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }

    // The rate-limited endpoint: the attempts started no faster than the rate, never more than RATE
    // in any second (one more for a timer that fired late). No upper bound on the drain's time: how
    // slow it may be depends on the machine, and tests assert no timings (a busy machine only slows it).
    const ideal = ((UPDATES - 1) / RATE) * 1000;
    expect(pacedStarts.at(-1)! - pacedStarts[0]!).toBeGreaterThanOrEqual(ideal * 0.95);
    for (const from of pacedStarts) expect(pacedStarts.filter((t) => t >= from && t < from + 1000).length).toBeLessThanOrEqual(RATE + 1);
    // As the receiver saw them (its process shares the event loop with the test's database, so the
    // arrivals jitter): the same drain, within a wider margin.
    const pacedAt = arrivals('/paced').sort((a, b) => a - b);
    expect(pacedAt.at(-1)! - pacedAt[0]!).toBeGreaterThanOrEqual(ideal * 0.7);
    // The plain endpoint was not held behind the paced one's backlog: it had every event before the
    // paced endpoint had its last (an order of events, not a duration).
    expect(plainLast).toBeLessThan(pacedAt.at(-1)!);
  });
});
