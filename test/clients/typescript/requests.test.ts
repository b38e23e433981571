// The TypeScript client (clients/typescript) against the running service: typed calls, errors as
// MarketplaceError, every page of a list, an Idempotency-Key on every POST kept across retries (a
// lost answer replays the first result: one object), and retries of 5xx and network failures.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { MarketplaceError, type components, type ListItem } from '../../../clients/typescript/src/index.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { listen, recordingClient } from './helpers.js';

type Order = components['schemas']['Order'];

let ctx: TestContext;
let baseUrl: string;
let secretKey: string;

beforeAll(async () => {
  ctx = await startTestApp();
  baseUrl = await listen(ctx);
  secretKey = ctx.keys.test.secret_key;
});
afterAll(() => ctx.close());

async function sellerAndListing(quantity: number) {
  const { client } = recordingClient(baseUrl, secretKey);
  const seller = await client.post('/v1/sellers', { body: { external_id: `seller-${crypto.randomUUID()}`, name: 'Ada', email: 'ada@example.com' } });
  const listing = await client.post('/v1/listings', { body: { seller: seller.id, title: 'Walnut desk', price: { amount: 45000, currency: 'USD' }, quantity } });
  await client.post('/v1/listings/{id}/publish', { params: { path: { id: listing.id } } });
  const buyer = await client.post('/v1/buyers', { body: { external_id: `buyer-${crypto.randomUUID()}`, name: 'Grace', email: 'grace@example.com' } });
  return { seller, listing, buyer };
}

async function orderCount(): Promise<number> {
  const { client } = recordingClient(baseUrl, secretKey);
  let count = 0;
  for await (const _order of client.list('/v1/orders', { query: { limit: 100 } })) count += 1;
  return count;
}

describe('typed calls and errors', () => {
  it('answers the data of a success, typed by the path', async () => {
    const { client, attempts } = recordingClient(baseUrl, secretKey);
    const marketplace = await client.get('/v1/marketplace');
    expect(marketplace.id).toBe(ctx.marketplaceId);
    expectTypeOf(marketplace.id).toEqualTypeOf<string>();
    expect(attempts).toMatchObject([{ method: 'GET', path: '/v1/marketplace', idempotencyKey: null, status: 200 }]);
  });

  it('refuses at compile time what the document does not allow', () => {
    const { client } = recordingClient(baseUrl, secretKey);
    // Never called: tsc (npm run typecheck) checks that each line below is an error.
    const _unchecked = () => {
      // @ts-expect-error a path parameter is required
      void client.get('/v1/orders/{id}');
      // @ts-expect-error the body is required
      void client.post('/v1/orders');
      // @ts-expect-error an unknown body field
      void client.post('/v1/buyers', { body: { external_id: 'x', nickname: 'y' } });
      // @ts-expect-error a path that does not exist
      void client.get('/v1/nothing');
      // @ts-expect-error not a list path
      void client.list('/v1/marketplace');
      // @ts-expect-error a nested list needs its path parameters
      void client.list('/v1/listings/{id}/media');
    };
    expect(typeof _unchecked).toBe('function');
  });

  it('throws MarketplaceError with the envelope: a 404 with its code and request id', async () => {
    const { client } = recordingClient(baseUrl, secretKey);
    const error = await client.get('/v1/orders/{id}', { params: { path: { id: 'ord_missing' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketplaceError);
    const failure = error as MarketplaceError;
    expect(failure).toMatchObject({ status: 404, type: 'invalid_request_error', code: 'resource_missing', param: null });
    expect(failure.requestId).toMatch(/^req_/);
  });

  it('a 400 names the field at fault in `param`, and a bad key is an authentication_error', async () => {
    const { client } = recordingClient(baseUrl, secretKey);
    const error = (await client.post('/v1/sellers', { body: { external_id: 'x', name: 'Ada', email: 'not an address' } }).catch((e: unknown) => e)) as MarketplaceError;
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'invalid_request', param: 'email' });

    const { client: stranger, attempts } = recordingClient(baseUrl, 'sk_test_not_a_key');
    const refused = (await stranger.get('/v1/marketplace').catch((e: unknown) => e)) as MarketplaceError;
    expect(refused).toMatchObject({ status: 401, type: 'authentication_error', code: 'api_key_invalid' });
    expect(attempts).toHaveLength(1); // a 4xx is not retried
  });
});

describe('list', () => {
  it('iterates every item of every page, newest first, one request per page', async () => {
    const { listing, buyer } = await sellerAndListing(10);
    const { client, attempts } = recordingClient(baseUrl, secretKey);
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await client.post('/v1/orders', { body: { listing: listing.id, buyer: buyer.id } })).id);

    attempts.length = 0;
    const seen: Array<ListItem<'/v1/orders'>> = [];
    for await (const order of client.list('/v1/orders', { query: { limit: 2, buyer: buyer.id } })) {
      // An order as the list answers it: expandable fields are the id or the object (docs/expand.md).
      expectTypeOf(order).toEqualTypeOf<ListItem<'/v1/orders'>>();
      expectTypeOf(order.object).toEqualTypeOf<Order['object']>();
      expectTypeOf<string>().toMatchTypeOf<typeof order.listing>();
      seen.push(order);
    }
    expect(seen.map((order) => order.id)).toEqual([...created].reverse());
    expect(attempts.map((attempt) => attempt.path)).toEqual(Array(4).fill('/v1/orders')); // 2 + 2 + 2 + 1
  });

  it('takes the path parameters of a nested list', async () => {
    const { listing } = await sellerAndListing(1);
    const { client } = recordingClient(baseUrl, secretKey);
    const media = [];
    for await (const item of client.list('/v1/listings/{id}/media', { path: { id: listing.id } })) media.push(item);
    expect(media).toEqual([]);
  });
});

describe('Idempotency-Key', () => {
  it('is sent on every POST, random unless given, and the caller may give its own', async () => {
    const { client, attempts } = recordingClient(baseUrl, secretKey);
    await client.post('/v1/sellers', { body: { external_id: `a-${crypto.randomUUID()}`, name: 'A', email: 'a@example.com' } });
    await client.post('/v1/sellers', { body: { external_id: `b-${crypto.randomUUID()}`, name: 'B', email: 'b@example.com' } });
    const body = { external_id: `c-${crypto.randomUUID()}`, name: 'C', email: 'c@example.com' };
    const first = await client.post('/v1/sellers', { body, idempotencyKey: 'my-own-key' });
    const again = await client.post('/v1/sellers', { body, idempotencyKey: 'my-own-key' });
    expect(again.id).toBe(first.id);
    const [a, b, c, d] = attempts;
    expect(a?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(b?.idempotencyKey).not.toBe(a?.idempotencyKey);
    expect([c?.idempotencyKey, d?.idempotencyKey]).toEqual(['my-own-key', 'my-own-key']);
    expect([c?.replayed, d?.replayed]).toEqual([false, true]);
  });

  it('a retry after a lost answer replays the first result: one order created', async () => {
    const { listing, buyer } = await sellerAndListing(5);
    const before = await orderCount();
    let lost = 0;
    const { client, attempts } = recordingClient(baseUrl, secretKey, {
      // The service answered 201, but the answer never reaches the client (the connection dropped).
      afterAnswer: (request, attempt) => {
        if (request.method === 'POST' && attempt.status === 201 && lost++ === 0) throw new TypeError('fetch failed: connection reset');
        return null;
      },
    });
    const order = await client.post('/v1/orders', { body: { listing: listing.id, buyer: buyer.id } });
    expect(attempts.map((a) => [a.status, a.replayed])).toEqual([[201, false], [201, true]]);
    expect(attempts[1]?.idempotencyKey).toBe(attempts[0]?.idempotencyKey);
    expect(order.listing).toBe(listing.id);
    expect(await orderCount()).toBe(before + 1);
  });
});

describe('retries', () => {
  it('retries 5xx answers with the same request, then answers the success', async () => {
    let failures = 2;
    const { client, attempts } = recordingClient(baseUrl, secretKey, {
      fault: () => (failures-- > 0 ? new Response(JSON.stringify({ error: { code: 'internal_error', message: 'x', request_id: 'req_x' } }), { status: 503 }) : null),
    });
    const seller = await client.post('/v1/sellers', { body: { external_id: `r-${crypto.randomUUID()}`, name: 'R', email: 'r@example.com' } });
    expect(seller.object).toBe('seller');
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 201]);
    expect(new Set(attempts.map((a) => a.idempotencyKey)).size).toBe(1);
  });

  it('retries requests that got no answer', async () => {
    let failures = 3;
    const { client, attempts } = recordingClient(baseUrl, secretKey, {
      fault: () => {
        if (failures-- > 0) throw new TypeError('fetch failed: ECONNREFUSED');
        return null;
      },
    });
    expect((await client.get('/v1/marketplace')).id).toBe(ctx.marketplaceId);
    expect(attempts.map((a) => a.status)).toEqual([null, null, null, 200]);
  });

  it('retries a POST answered 409 idempotency_key_in_use (its key still running), not another 409', async () => {
    let busy = 1;
    const inUse = () => new Response(JSON.stringify({ error: { code: 'idempotency_key_in_use', message: 'Running.', request_id: 'req_busy' } }), { status: 409 });
    const { client, attempts } = recordingClient(baseUrl, secretKey, { fault: (request) => (request.method === 'POST' && busy-- > 0 ? inUse() : null) });
    const seller = await client.post('/v1/sellers', { body: { external_id: `busy-${crypto.randomUUID()}`, name: 'B', email: 'b@example.com' } });
    expect(seller.object).toBe('seller');
    expect(attempts.map((a) => a.status)).toEqual([409, 201]);

    const { client: other, attempts: once } = recordingClient(baseUrl, secretKey);
    const body = { external_id: `dup-${crypto.randomUUID()}`, name: 'D', email: 'd@example.com' };
    await other.post('/v1/sellers', { body, idempotencyKey: 'reused-key' });
    const reused = (await other.post('/v1/sellers', { body: { ...body, name: 'E' }, idempotencyKey: 'reused-key' }).catch((e: unknown) => e)) as MarketplaceError;
    expect(reused).toMatchObject({ status: 409, type: 'conflict_error', code: 'idempotency_key_reused' });
    expect(once).toHaveLength(2);
  });

  it('does not wait a Retry-After longer than a minute: the 429 is thrown at once', async () => {
    const { client, attempts } = recordingClient(baseUrl, secretKey, {
      fault: () => new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Wait.', request_id: 'req_wait' } }), { status: 429, headers: { 'Retry-After': '3600' } }),
    });
    const started = Date.now();
    const error = (await client.get('/v1/marketplace').catch((e: unknown) => e)) as MarketplaceError;
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limited' });
    expect(attempts).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives up after maxRetries: the last answer as a MarketplaceError, or a connection_error', async () => {
    const { client, attempts } = recordingClient(baseUrl, secretKey, {
      maxRetries: 1,
      fault: () => new Response(JSON.stringify({ error: { code: 'internal_error', message: 'Down.', request_id: 'req_down' } }), { status: 500 }),
    });
    const error = (await client.get('/v1/marketplace').catch((e: unknown) => e)) as MarketplaceError;
    expect(error).toMatchObject({ status: 500, type: 'api_error', code: 'internal_error', requestId: 'req_down' });
    expect(attempts).toHaveLength(2);

    const { client: offline } = recordingClient(baseUrl, secretKey, {
      maxRetries: 2,
      fault: () => {
        throw new TypeError('fetch failed');
      },
    });
    const unreachable = (await offline.get('/v1/marketplace').catch((e: unknown) => e)) as MarketplaceError;
    expect(unreachable).toBeInstanceOf(MarketplaceError);
    expect(unreachable).toMatchObject({ status: 0, type: 'connection_error', code: 'network_error' });
  });
});
