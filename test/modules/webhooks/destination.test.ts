// Destination safety without WEBHOOK_ALLOW_PRIVATE_URLS (contract 13): every private, loopback,
// link-local, CGNAT or reserved address refused at create, however it is written; a name that
// resolves there refused at delivery, on the address the connection would dial. The app runs as
// a service on a PostgreSQL server would (DATABASE_URL set; the test's own database is handed in),
// so test mode's loopback exception of the embedded database (local-development.test.ts) is off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryDispatcher } from '../../../src/modules/webhooks/dispatcher.js';
import { isPublicAddress, pinnedLookup, refusalOfUrl, type Resolver } from '../../../src/modules/webhooks/destination.js';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { createEndpoint, deliveriesOf } from './helpers.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: '0', DATABASE_URL: 'postgres://server.invalid/market' } });
});
afterAll(() => ctx.close());

describe('addresses', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '0.0.0.0', '169.254.169.254', '100.64.0.1', '224.0.0.1', '255.255.255.255',
    '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', 'fc00::1', 'fd12::1', 'fe80::1', 'ff02::1', '2001:db8::1', '64:ff9b::a00:1'])(
    '%s is not public',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => expect(isPublicAddress(address)).toBe(true));
});

describe('at create', () => {
  it.each([
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::]/hook',
    'https://0.0.0.0/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://[fc00::1]/hook',
    'https://127.1/hook',
    'https://localhost/hook',
    'https://api.localhost/hook',
    'http://8.8.8.8/hook',
  ])('refuses %s with 400 param url', async (url) => {
    const res = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url, enabled_events: ['*'] } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
    expect(res.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
  });

  it('refuses a name that resolves to 127.0.0.1, and one with any private address among public ones', async () => {
    const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const mixed: Resolver = async () => [{ address: '8.8.8.8', family: 4 }, { address: '10.0.0.1', family: 4 }];
    expect(await refusalOfUrl('https://hooks.example.test/x', false, loopback)).toMatch(/resolve/);
    expect(await refusalOfUrl('https://hooks.example.test/x', false, mixed)).toMatch(/resolve/);
    expect(await refusalOfUrl('https://hooks.example.test/x', false, async () => [{ address: '8.8.8.8', family: 4 }])).toBeNull();
    expect(await refusalOfUrl('http://127.0.0.1:8080/x', true)).toBeNull();
  });

  it('accepts a public https URL', async () => {
    const res = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url: 'https://8.8.8.8/hook', enabled_events: ['*'] } });
    expect(res.status, res.text).toBe(201);
    await ctx.request(`/v1/webhook_endpoints/${res.body.id}`, { method: 'DELETE' });
  });
});

describe('at delivery', () => {
  it('refuses a name whose DNS answer turned private after the check, on the address it would dial', async () => {
    // At create the name resolved to a public address; at connect it resolves to loopback.
    let answer = '93.184.216.34';
    const resolver: Resolver = async () => [{ address: answer, family: 4 }];
    expect(await refusalOfUrl('https://rebind.example.test/hook', false, resolver)).toBeNull();
    const endpoint = await createEndpoint(ctx, { url: 'https://rebind.example.test/hook', enabled_events: ['seller.created'] });
    answer = '127.0.0.1';
    await createSeller(ctx);
    const dispatcher = createDeliveryDispatcher(ctx.services, { resolver });
    await dispatcher.runDue(null, { wait: true });
    await dispatcher.stop(0);
    const [delivery] = await deliveriesOf(ctx, endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, error: 'blocked_destination', response: { status: null } });
  });

  it('hands the connection only the addresses it checked', async () => {
    const lookup = pinnedLookup(async () => [{ address: '8.8.8.8', family: 4 }]);
    const answer = await new Promise<unknown>((resolve) => lookup('x.test', { all: true }, (_err, addresses) => resolve(addresses)));
    expect(answer).toEqual([{ address: '8.8.8.8', family: 4 }]);
    const refused = pinnedLookup(async () => [{ address: '8.8.8.8', family: 4 }, { address: '169.254.169.254', family: 4 }]);
    const err = await new Promise<Error | null>((resolve) => refused('x.test', {}, (e) => resolve(e)));
    expect(err?.message).toMatch(/not on the public internet/);
  });
});
