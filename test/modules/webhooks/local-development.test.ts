// Local development (issue: the first hour): on the embedded database (no DATABASE_URL) and without
// WEBHOOK_ALLOW_PRIVATE_URLS, test mode accepts loopback webhook URLs and delivers to them; other
// private addresses stay refused, live mode refuses loopback too, and every refusal names the
// setting. With DATABASE_URL set, test mode refuses loopback as well (destination.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { createEndpoint, deliverDue, deliveriesOf, startReceiver, type Receiver } from './helpers.js';

let ctx: TestContext;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: '0' } });
  expect(ctx.config.databaseUrl).toBeNull();
  receiver = await startReceiver();
}, 240_000);
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

const create = (url: string, key?: string) => ctx.request('/v1/webhook_endpoints', { method: 'POST', key, body: { url, enabled_events: ['*'] } });

describe('test mode on the embedded database', () => {
  it.each(['http://127.0.0.1:4242/hooks', 'http://localhost:4242/hooks', 'http://[::1]:4242/hooks', 'https://127.0.0.1/hooks', 'http://127.0.0.2:9/x'])(
    'accepts the loopback URL %s',
    async (url) => {
      const res = await create(url);
      expect(res.status, res.text).toBe(201);
      await ctx.request(`/v1/webhook_endpoints/${res.body.id}`, { method: 'DELETE' });
    },
  );

  it.each(['http://10.0.0.1/hooks', 'https://192.168.1.10/hooks', 'https://169.254.169.254/latest/meta-data', 'http://8.8.8.8/hooks', 'http://[fc00::1]/hooks'])(
    'still refuses %s, naming WEBHOOK_ALLOW_PRIVATE_URLS',
    async (url) => {
      const res = await create(url);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
      expect(res.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
    },
  );

  it('delivers to a receiver on 127.0.0.1 over http', async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/local'), enabled_events: ['seller.created'] });
    const seller = await createSeller(ctx);
    await deliverDue(ctx);
    const [delivery] = await deliveriesOf(ctx, endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(receiver.received.some((r) => r.path === '/local' && r.body.includes(seller.id))).toBe(true);
  });
});

describe('live mode on the embedded database', () => {
  it.each(['http://127.0.0.1:4242/hooks', 'https://localhost/hooks', 'https://[::1]/hooks'])('refuses %s, naming WEBHOOK_ALLOW_PRIVATE_URLS', async (url) => {
    const res = await create(url, ctx.keys.live.secret_key);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
    expect(res.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
  });
});

describe('test mode with DATABASE_URL set', () => {
  let server: TestContext;
  beforeAll(async () => {
    server = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: '0', DATABASE_URL: 'postgres://server.invalid/market' } });
  }, 240_000);
  afterAll(() => server?.close());

  it('refuses a loopback URL, naming WEBHOOK_ALLOW_PRIVATE_URLS', async () => {
    const res = await server.request('/v1/webhook_endpoints', { method: 'POST', body: { url: 'http://127.0.0.1:4242/hooks', enabled_events: ['*'] } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.message).toMatch(/^The url must be an https:\/\/ URL \(WEBHOOK_ALLOW_PRIVATE_URLS=1 allows/);
  });
});
