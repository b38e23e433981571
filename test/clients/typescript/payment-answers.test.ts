// Create answers hold what they promise under an Idempotency-Key (the typed client sends one on
// every POST): a checkout's `payment_url` (made by the processor's start call, after the COMMIT)
// is in the answer, and a replay of the same request answers the same. Payments on, simulated
// processor, test mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { listen, recordingClient } from './helpers.js';

let ctx: TestContext;
let baseUrl: string;

beforeAll(async () => {
  ctx = await startTestApp();
  baseUrl = await listen(ctx);
  await ctx.db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [
    ctx.marketplaceId,
    JSON.stringify({ payments_enabled: true }),
    'test',
  ]);
});
afterAll(() => ctx?.close());

async function party() {
  const { client } = recordingClient(baseUrl, ctx.keys.test.secret_key);
  const seller = await client.post('/v1/sellers', { body: { external_id: `seller-${crypto.randomUUID()}`, name: 'Ada', email: 'ada@example.com' } });
  await client.post('/v1/test_helpers/sellers/{id}/payouts', { params: { path: { id: seller.id } }, body: { status: 'enabled' } });
  const listing = await client.post('/v1/listings', { body: { seller: seller.id, title: 'Walnut desk', price: { amount: 45000, currency: 'USD' }, quantity: 5 } });
  await client.post('/v1/listings/{id}/publish', { params: { path: { id: listing.id } } });
  const buyer = await client.post('/v1/buyers', { body: { external_id: `buyer-${crypto.randomUUID()}`, name: 'Grace', email: 'grace@example.com' } });
  return { client, listing, buyer };
}

describe('POST /v1/checkouts under an Idempotency-Key', () => {
  it('answers payment_url, as a GET just after does, and a replay answers the same', async () => {
    const { client, listing, buyer } = await party();
    const { client: keyed, attempts } = recordingClient(baseUrl, ctx.keys.test.secret_key);
    const idempotencyKey = `checkout-${crypto.randomUUID()}`;
    const body = { buyer: buyer.id, items: [{ listing: listing.id }] };
    const created = await keyed.post('/v1/checkouts', { body, idempotencyKey });
    expect(attempts[0]).toMatchObject({ idempotencyKey, status: 201, replayed: false });
    expect(created.status).toBe('awaiting_payment');
    expect(created.payment_url).toEqual(expect.stringMatching(/^http/));
    const fetched = await client.get('/v1/checkouts/{id}', { params: { path: { id: created.id } } });
    expect(fetched.payment_url).toBe(created.payment_url);

    const replayed = await keyed.post('/v1/checkouts', { body, idempotencyKey });
    expect(attempts[1]).toMatchObject({ idempotencyKey, status: 201, replayed: true });
    expect(replayed).toEqual(created);
  });

  it('answers the charge the storefront pays with its own form (payment_method payment_intent): the client_secret is the payment\'s', async () => {
    const { client, listing, buyer } = await party();
    const created = await client.post('/v1/checkouts', { body: { buyer: buyer.id, items: [{ listing: listing.id }], payment_method: 'payment_intent' } });
    expect(created.payment_url).toBeNull();
    const payment = await client.get('/v1/payments/{id}', { params: { path: { id: created.payment! } } });
    expect(payment.client_secret).toEqual(expect.any(String));
  });

  it('a retry while the first request finishes its answer is told to retry; once stored it replays the completed answer', async () => {
    const { listing, buyer } = await party();
    const { client: keyed } = recordingClient(baseUrl, ctx.keys.test.secret_key);
    const idempotencyKey = `checkout-${crypto.randomUUID()}`;
    const body = { buyer: buyer.id, items: [{ listing: listing.id }] };
    const created = await keyed.post('/v1/checkouts', { body, idempotencyKey });
    // A process that stopped between its COMMIT and completing its answer left it completing, with a null page:
    const [row] = await ctx.db.query<{ response_body: string }>(
      'SELECT response_body FROM idempotency_keys WHERE marketplace_id = $1 AND mode = $2 AND key = $3',
      [ctx.marketplaceId, 'test', idempotencyKey],
    );
    const stale = JSON.stringify({ ...JSON.parse(row!.response_body), payment_url: null });
    await ctx.db.query("UPDATE idempotency_keys SET response_body = $4, locked_until = 'epoch', claimed_by = NULL WHERE marketplace_id = $1 AND mode = $2 AND key = $3", [
      ctx.marketplaceId,
      'test',
      idempotencyKey,
      stale,
    ]);
    const replayed = await keyed.post('/v1/checkouts', { body, idempotencyKey });
    expect(replayed.payment_url).toBe(created.payment_url);
    const [after] = await ctx.db.query<{ locked_until: Date | null }>(
      'SELECT locked_until FROM idempotency_keys WHERE marketplace_id = $1 AND mode = $2 AND key = $3',
      [ctx.marketplaceId, 'test', idempotencyKey],
    );
    expect(after!.locked_until).toBeNull();
  });
});

describe('POST /v1/orders under an Idempotency-Key', () => {
  it("answers the order with its payment, whose page exists at once; a replay answers the same", async () => {
    const { client, listing, buyer } = await party();
    const { client: keyed, attempts } = recordingClient(baseUrl, ctx.keys.test.secret_key);
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    const body = { buyer: buyer.id, listing: listing.id };
    const created = await keyed.post('/v1/orders', { body, idempotencyKey });
    expect(created.state).toBe('awaiting_payment');
    const payment = await client.get('/v1/payments/{id}', { params: { path: { id: created.payment! } } });
    expect(payment.checkout_url).toEqual(expect.stringMatching(/^http/));
    const replayed = await keyed.post('/v1/orders', { body, idempotencyKey });
    expect(attempts[1]).toMatchObject({ status: 201, replayed: true });
    expect(replayed).toEqual(created);
  });
});
