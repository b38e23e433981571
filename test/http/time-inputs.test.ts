// One timestamp form in and out (docs/requests.md, "Times and lists"): every time the API takes
// accepts the ISO 8601 timestamps its objects carry, and unix seconds, through one shared schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../helpers/factories.js';
import { startTestApp, type TestContext } from '../helpers/harness.js';

let ctx: TestContext;
/** A ledger line made by a paid order. */
let line: Json;

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [
    ctx.marketplaceId,
    JSON.stringify({ payments_enabled: true }),
    'test',
  ]);
  const seller = await createSeller(ctx);
  expect((await ctx.request(`/v1/test_helpers/sellers/${seller.id}/payouts`, { body: { status: 'enabled' } })).status).toBe(200);
  const listing = await createPublishedListing(ctx, { seller: seller.id, quantity: 5 });
  const buyer = await createBuyer(ctx);
  const order = await ctx.request('/v1/orders', { body: { buyer: buyer.id, listing: listing.id } });
  expect(order.status, order.text).toBe(201);
  // The page's URL carries its secret token: taken from the payment, never built by hand.
  const page = new URL((await ctx.request(`/v1/payments/${order.body.payment}`)).body.checkout_url).pathname;
  const paid = await ctx.request(`${page}/pay`, {
    method: 'POST',
    key: null,
    body: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect([200, 303], paid.text).toContain(paid.status);
  // The payment's report is recorded by the pay request itself; its ledger lines are there after it.
  line = (await ctx.request('/v1/balance_transactions?limit=1')).body.data[0];
  expect(line, 'a ledger line of the paid order').toBeDefined();
}, 180_000);
afterAll(() => ctx?.close());

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const ids = async (query: string) => {
  const answer = await ctx.request(`/v1/balance_transactions?limit=100&${query}`);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.data as Json[]).map((l) => l.id as string);
};

describe('created[gte|gt|lte|lt] on GET /v1/balance_transactions', () => {
  it('takes an ISO 8601 timestamp, as the line carries it', async () => {
    const at = line.created as string;
    expect(await ids(`created[gte]=${encodeURIComponent(at)}`)).toContain(line.id);
    expect(await ids(`created[lte]=${encodeURIComponent(at)}`)).toContain(line.id);
    expect(await ids(`created[gt]=${encodeURIComponent(at)}`)).not.toContain(line.id);
    expect(await ids(`created[lt]=${encodeURIComponent(at)}`)).not.toContain(line.id);
    const hourAhead = new Date(Date.parse(at) + 3_600_000);
    expect(await ids(`created[gte]=${encodeURIComponent(hourAhead.toISOString())}`)).toEqual([]);
    // An offset names the same moment: an hour ahead in UTC is this time at +01:00.
    const sameMoment = `${hourAhead.toISOString().slice(0, 11)}${String(hourAhead.getUTCHours()).padStart(2, '0')}${hourAhead.toISOString().slice(13, 23)}+00:00`;
    expect(await ids(`created[gte]=${encodeURIComponent(sameMoment)}`)).toEqual([]);
  });

  it('takes unix seconds', async () => {
    const seconds = unix(line.created);
    expect(await ids(`created[gte]=${seconds - 60}`)).toContain(line.id);
    expect(await ids(`created[lt]=${seconds - 60}`)).not.toContain(line.id);
    expect(await ids(`created[gt]=${seconds + 60}`)).toEqual([]);
    expect(await ids(`created[lte]=${seconds + 60}`)).toContain(line.id);
  });

  it('refuses anything else, naming the field and the two forms', async () => {
    for (const bad of ['2026-11-21', 'yesterday', '-5', '1.5']) {
      const answer = await ctx.request(`/v1/balance_transactions?created[gte]=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_request', param: 'created[gte]' });
      expect(answer.body.error.message).toMatch(/ISO 8601 timestamp .* or unix seconds/);
    }
  });
});

describe('interval_start and interval_end of POST /v1/reports', () => {
  it('takes ISO 8601 timestamps, answering the interval in ISO 8601 as every object does', async () => {
    const answer = await ctx.request('/v1/reports', {
      body: { type: 'platform_fees', interval_start: '2026-11-01T00:00:00.000Z', interval_end: '2026-12-01T01:00:00+01:00' },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ interval_start: '2026-11-01T00:00:00.000Z', interval_end: '2026-12-01T00:00:00.000Z' });
  });

  it('takes unix seconds, and the two forms mixed', async () => {
    const answer = await ctx.request('/v1/reports', { body: { type: 'platform_fees', interval_start: 1793491200, interval_end: '2026-12-01T00:00:00Z' } });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ interval_start: new Date(1793491200 * 1000).toISOString(), interval_end: '2026-12-01T00:00:00.000Z' });
  });

  it('refuses a fraction of a second, a date alone, and digits as text', async () => {
    const fraction = await ctx.request('/v1/reports', { body: { type: 'platform_fees', interval_start: '2026-11-01T00:00:00.500Z', interval_end: 1796083200 } });
    expect(fraction.status).toBe(400);
    expect(fraction.body.error).toMatchObject({ code: 'invalid_request', param: 'interval_start' });
    for (const bad of ['2026-11-01', '1793491200']) {
      const answer = await ctx.request('/v1/reports', { body: { type: 'platform_fees', interval_start: bad, interval_end: 1796083200 } });
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_request', param: 'interval_start' });
      expect(answer.body.error.message).toMatch(/ISO 8601 timestamp .* or unix seconds/);
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents every time input with the one shared schema: an ISO 8601 string or unix seconds', async () => {
    const document = (await ctx.request('/v1/openapi.json')).body;
    // A query parameter's description sits on the parameter, a body field's on its schema.
    const shapes: Array<{ schema: Json; description: string }> = [];
    const ledger = document.paths['/v1/balance_transactions'].get.parameters as Json[];
    for (const name of ['created[gte]', 'created[gt]', 'created[lte]', 'created[lt]']) {
      const parameter = ledger.find((p) => p.name === name);
      shapes.push({ schema: parameter.schema, description: parameter.description ?? parameter.schema.description });
    }
    const report = document.paths['/v1/reports'].post.requestBody.content['application/json'].schema;
    for (const field of ['interval_start', 'interval_end']) shapes.push({ schema: report.properties[field], description: report.properties[field].description });
    for (const { schema, description } of shapes) {
      expect(schema.anyOf).toEqual([
        expect.objectContaining({ type: 'string', format: 'date-time' }),
        expect.objectContaining({ type: 'integer', minimum: 0, maximum: 253402300799 }),
      ]);
      expect(description).toMatch(/ISO 8601 timestamp .* or unix seconds/);
    }
  });
});
