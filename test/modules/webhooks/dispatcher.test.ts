// The dispatcher's loop: a dead endpoint holds only its own slots, and the others' deliveries go on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryDispatcher } from '../../../src/modules/webhooks/dispatcher.js';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { waitFor } from '../../workers/helpers.js';
import { createEndpoint, deliveriesOf, startReceiver, type Receiver } from './helpers.js';

let ctx: TestContext;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await startTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

describe('the dispatcher loop', () => {
  it('keeps a dead endpoint to its per-endpoint cap while it delivers everything else', { timeout: 60_000 }, async () => {
    let open = 0;
    let mostOpen = 0;
    receiver.on('/dead', (_req, res) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      res.on('close', () => open--);
    });
    const dead = await createEndpoint(ctx, { url: receiver.url('/dead'), enabled_events: ['seller.created'] });
    const alive = await createEndpoint(ctx, { url: receiver.url('/alive'), enabled_events: ['seller.created'] });
    const events = 12;
    for (let i = 0; i < events; i++) await createSeller(ctx);
    const dispatcher = createDeliveryDispatcher(ctx.services, { perEndpoint: 3, maxInFlight: 8, maxPollMs: 20 });
    dispatcher.start();
    await waitFor(async () => (await deliveriesOf(ctx, alive.id)).filter((d) => d.status === 'succeeded').length === events, 30_000);
    // Every healthy delivery went through while the dead endpoint's attempts hung: it never had
    // more than its 3 slots at once.
    expect(receiver.received.filter((r) => r.path === '/dead').length).toBeGreaterThan(0);
    expect(mostOpen).toBeLessThanOrEqual(3);
    expect(receiver.received.filter((r) => r.path === '/alive')).toHaveLength(events);
    await dispatcher.stop();
    expect(mostOpen).toBeLessThanOrEqual(3);
    const deadDeliveries = await deliveriesOf(ctx, dead.id);
    expect(deadDeliveries).toHaveLength(events);
    expect(deadDeliveries.every((d) => d.status === 'pending')).toBe(true);
    expect(deadDeliveries.filter((d) => d.attempts === 1).every((d) => d.error === 'timeout')).toBe(true);
  });
});
