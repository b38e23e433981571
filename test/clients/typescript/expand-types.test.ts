// Answers typed by the `expand` asked for (clients/typescript/src/expand.ts), checked by tsc
// (`npm run typecheck`) and by vitest's expectTypeOf; and the same answers from the running
// service, so the types say what the service does.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createManagementClient, type components } from '../../../clients/typescript/src/index.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { listen, recordingClient } from './helpers.js';

type Seller = components['schemas']['Seller'];

let ctx: TestContext;
let baseUrl: string;

beforeAll(async () => {
  ctx = await startTestApp();
  baseUrl = await listen(ctx);
}, 300_000);
afterAll(() => ctx?.close());

async function anOrder() {
  const { client } = recordingClient(baseUrl, ctx.keys.test.secret_key);
  const seller = await client.post('/v1/sellers', { body: { external_id: `s-${crypto.randomUUID()}`, name: 'Ada', email: 'ada@example.com' } });
  const listing = await client.post('/v1/listings', { body: { seller: seller.id, title: 'Walnut desk', price: { amount: 45000, currency: 'USD' } } });
  await client.post('/v1/listings/{id}/publish', { params: { path: { id: listing.id } } });
  const buyer = await client.post('/v1/buyers', { body: { external_id: `b-${crypto.randomUUID()}`, name: 'Grace', email: 'grace@example.com' } });
  const order = await client.post('/v1/orders', { body: { listing: listing.id, buyer: buyer.id, quantity: 1 } });
  return { client, order, seller, listing };
}

describe('expand types', () => {
  it('types a field asked for as the object and every other expandable field as its id', async () => {
    const { client, order, seller } = await anOrder();
    const plain = await client.get('/v1/orders/{id}', { params: { path: { id: order.id } } });
    expectTypeOf(plain.seller).toEqualTypeOf<string>();
    expectTypeOf(plain.checkout).toEqualTypeOf<string | null>();
    expect(plain.seller).toBe(seller.id);

    const expanded = await client.get('/v1/orders/{id}', { params: { path: { id: order.id }, query: { expand: ['seller'] } } });
    expectTypeOf(expanded.seller.id).toEqualTypeOf<string>();
    expectTypeOf(expanded.seller.object).toEqualTypeOf<Seller['object']>();
    expectTypeOf(expanded.listing).toEqualTypeOf<string>();
    expect(expanded.seller.name).toBe('Ada');
    expect(typeof expanded.listing).toBe('string');

    // Two levels: the listing expanded, and its seller within it.
    const deep = await client.get('/v1/orders/{id}', { params: { path: { id: order.id }, query: { expand: ['listing.seller'] } } });
    expectTypeOf(deep.listing.seller.id).toEqualTypeOf<string>();
    expectTypeOf(deep.seller).toEqualTypeOf<string>();
    expect(deep.listing.seller.id).toBe(seller.id);

    // A nullable field stays nullable when expanded.
    const nullable = await client.get('/v1/orders/{id}', { params: { path: { id: order.id }, query: { expand: ['checkout'] } } });
    expectTypeOf(nullable.checkout).toEqualTypeOf<Exclude<typeof nullable.checkout, string>>();
    expect(nullable.checkout).toBeNull();

    // Never called: tsc checks that each line is an error.
    const _unchecked = () => {
      // @ts-expect-error not expanded: an id, not an object
      void plain.seller.id;
      // @ts-expect-error not asked for: an id
      void expanded.listing.id;
      // @ts-expect-error a path the route does not take
      void client.get('/v1/orders/{id}', { params: { path: { id: 'x' }, query: { expand: ['nothing'] } } });
    };
    void _unchecked;
  });

  it('types the items of a page and of list() by the expand asked for', async () => {
    const { client, order } = await anOrder();
    const page = await client.get('/v1/orders', { params: { query: { expand: ['buyer'], limit: 1 } } });
    expectTypeOf(page.data[0]!.buyer.id).toEqualTypeOf<string>();
    expectTypeOf(page.data[0]!.seller).toEqualTypeOf<string>();
    expect(typeof page.data[0]!.buyer.id).toBe('string');
    let seen = false;
    for await (const item of client.list('/v1/orders', { query: { expand: ['seller'], limit: 10 } })) {
      expectTypeOf(item.seller.id).toEqualTypeOf<string>();
      expectTypeOf(item.buyer).toEqualTypeOf<string>();
      if (item.id === order.id) seen = item.seller.name === 'Ada';
    }
    expect(seen).toBe(true);
  });
});

describe('the management client', () => {
  it('logs in, lists marketplaces and reads a mode\'s settings and keys, typed by /manage/v1', async () => {
    const anonymous = createManagementClient({ baseUrl, retryDelay: { initialMs: 10, maxMs: 50 } });
    const session = await anonymous.post('/manage/v1/login', { body: ctx.owner });
    expectTypeOf(session.token).toEqualTypeOf<string>();
    const manage = anonymous.withToken(session.token);
    const marketplaces = await manage.get('/manage/v1/marketplaces');
    expect(marketplaces.data.map((m) => m.id)).toContain(ctx.marketplaceId);
    const settings = await manage.get('/manage/v1/marketplaces/{id}/modes/{mode}/settings', { params: { path: { id: ctx.marketplaceId, mode: 'test' } } });
    expect(settings).toBeTypeOf('object');
    const keys = await manage.get('/manage/v1/marketplaces/{id}/modes/{mode}/api_keys', { params: { path: { id: ctx.marketplaceId, mode: 'test' } } });
    expect(keys.data.length).toBeGreaterThan(0);
    const refused = await anonymous.get('/manage/v1/marketplaces').catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, code: 'authentication_required' });
    const _unchecked = () => {
      // @ts-expect-error a /v1 path is not a management path
      void manage.get('/v1/orders');
      // @ts-expect-error the mode is a path parameter
      void manage.get('/manage/v1/marketplaces/{id}/modes/{mode}/settings', { params: { path: { id: 'mkt_x' } } });
    };
    void _unchecked;
  });
});
