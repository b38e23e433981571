// Every list pages the same way (docs/requests.md, "Times and lists"): each GET operation of the
// OpenAPI document whose answer is a list object takes `limit` and `starting_after`, and answers
// 200 with at most one item for `limit=1`. The operations are read from the document itself, so a
// list added later is walked too; path parameters are made, required filters given. Anything
// skipped is skipped by name, with its reason printed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBuyer, createPublishedListing, createSeller } from '../helpers/factories.js';
import { startTestApp, type TestContext } from '../helpers/harness.js';
import { payoutHelpers } from '../modules/payouts/helpers.js';

let ctx: TestContext;
let managementToken: string;
/** Values for path parameters and required query parameters, by operation path and name. */
let values: Record<string, Record<string, string>>;

/** Operations skipped, each with why (printed by the test). None today. */
const SKIPPED: Record<string, string> = {};

beforeAll(async () => {
  ctx = await startTestApp();
  const seller = await createSeller(ctx);
  const buyer = await createBuyer(ctx);
  const listing = await createPublishedListing(ctx, { seller: seller.id, quantity: 5 });
  const order = await ctx.request('/v1/orders', { body: { buyer: buyer.id, listing: listing.id } });
  expect(order.status, order.text).toBe(201);
  // A listing that sells time, open around the clock: its time slots are a list too.
  const timed = await createPublishedListing(ctx, { seller: seller.id, unit_type: 'time', slot_minutes: 60 });
  const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const open = await ctx.request(`/v1/listings/${timed.id}/availability`, { method: 'PUT', body: { time_zone: 'UTC', rules: [{ days: week, start: '00:00', end: '24:00' }] } });
  expect(open.status, open.text).toBe(200);
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  // A payout, for its lines: payments on, a seller on a manual schedule paid for one completed order.
  const payouts = payoutHelpers(() => ctx);
  await payouts.setSettings({ payments_enabled: true, release_delay_seconds: 0 });
  const parties = await payouts.scheduledParties({ interval: 'manual' });
  await payouts.completedOrder(parties);
  const payout = await ctx.request('/v1/payouts', { body: { seller: parties.seller.id } });
  expect(payout.status, payout.text).toBe(201);
  const login = await ctx.request('/manage/v1/login', { key: null, body: ctx.owner });
  expect(login.status, login.text).toBe(200);
  managementToken = login.body.token;
  values = {
    '/v1/orders/{id}/events': { id: order.body.id },
    '/v1/listings/{id}/media': { id: listing.id },
    '/v1/listings/{id}/timeslots': { id: timed.id, start: day(2), end: day(4) },
    '/v1/payouts/{id}/lines': { id: payout.body.id },
    '/manage/v1/marketplaces/{id}/modes/{mode}/api_keys': { id: ctx.marketplaceId, mode: 'test' },
    // Required filters: who the reviews and reputation events are of.
    '/v1/reviews': { subject: seller.id },
    '/v1/reputation_events': { subject: seller.id },
  };
}, 180_000);
afterAll(() => ctx?.close());

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

interface Operation {
  parameters?: Parameter[];
  responses?: Record<string, { content?: Record<string, { schema?: { properties?: { object?: { const?: string; enum?: string[] } } } }> }>;
}

function isListAnswer(operation: Operation): boolean {
  const object = operation.responses?.['200']?.content?.['application/json']?.schema?.properties?.object;
  return object?.const === 'list' || (object?.enum?.length === 1 && object.enum[0] === 'list');
}

it('every list operation of the OpenAPI document takes limit and starting_after, and limit=1 answers at most one item', async () => {
  const document = (await ctx.request('/v1/openapi.json')).body as { paths: Record<string, { get?: Operation }> };
  const lists = Object.entries(document.paths).filter(([, item]) => item.get !== undefined && isListAnswer(item.get));
  // The document's own lists, at least those of interface.md 8 and the management API.
  expect(lists.map(([path]) => path)).toEqual(expect.arrayContaining(['/v1/orders', '/v1/event_types', '/v1/search/listings', '/manage/v1/workspaces']));
  const failures: string[] = [];
  const skipped: string[] = [];
  for (const [path, item] of lists) {
    if (SKIPPED[path]) {
      skipped.push(`${path}: ${SKIPPED[path]}`);
      continue;
    }
    const parameters = item.get!.parameters ?? [];
    const names = parameters.filter((p) => p.in === 'query').map((p) => p.name);
    for (const paging of ['limit', 'starting_after']) if (!names.includes(paging)) failures.push(`${path}: no ${paging} in the document`);
    const given = values[path] ?? {};
    let url = path;
    for (const parameter of parameters.filter((p) => p.in === 'path')) {
      const value = given[parameter.name];
      if (value === undefined) throw new Error(`${path}: no value for the path parameter ${parameter.name}; add one to values`);
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
    }
    const query = new URLSearchParams({ limit: '1' });
    for (const parameter of parameters.filter((p) => p.in === 'query' && p.required)) {
      const value = given[parameter.name];
      if (value === undefined) throw new Error(`${path}: no value for the required query parameter ${parameter.name}; add one to values`);
      query.set(parameter.name, value);
    }
    const key = path.startsWith('/manage/') ? managementToken : ctx.keys.test.secret_key;
    const answer = await ctx.request(`${url}?${query}`, { key });
    if (answer.status !== 200) {
      failures.push(`${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
      continue;
    }
    if (answer.body.object !== 'list' || !Array.isArray(answer.body.data) || answer.body.data.length > 1) {
      failures.push(`${path}: not a list of at most one item: ${answer.text.slice(0, 200)}`);
      continue;
    }
    // A next page, when there is one, is reached with starting_after.
    if (answer.body.has_more) {
      query.set('starting_after', answer.body.next_cursor);
      const next = await ctx.request(`${url}?${query}`, { key });
      if (next.status !== 200 || next.body.data.length > 1) failures.push(`${path}: starting_after=${answer.body.next_cursor}: ${next.status} ${next.text.slice(0, 200)}`);
    }
  }
  console.log(`list operations walked: ${lists.length - skipped.length}; skipped: ${skipped.length === 0 ? 'none' : skipped.join('; ')}`);
  expect(failures).toEqual([]);
});

it('pages the event types by type: every type once, in the catalog order', async () => {
  const all = await ctx.request('/v1/event_types?limit=100');
  expect(all.status, all.text).toBe(200);
  const walked: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; text: string; body: { data: Array<{ type: string }>; next_cursor: string | null } } = await ctx.request(
      `/v1/event_types?limit=7${cursor === null ? '' : `&starting_after=${cursor}`}`,
    );
    expect(page.status, page.text).toBe(200);
    walked.push(...page.body.data.map((t) => t.type));
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  expect(walked).toEqual(all.body.data.map((t: { type: string }) => t.type));
  const unknown = await ctx.request('/v1/event_types?starting_after=order.nothing');
  expect(unknown.status).toBe(400);
  expect(unknown.body.error).toMatchObject({ code: 'invalid_request', param: 'starting_after' });
});

it('takes starting_after on the listing search as the other name of cursor, and refuses both at once', async () => {
  const seller = await createSeller(ctx);
  for (let i = 0; i < 2; i++) await createPublishedListing(ctx, { seller: seller.id, title: `Paged lamp ${i}` });
  const first = await ctx.request(`/v1/search/listings?seller=${seller.id}&limit=1`);
  expect(first.body.has_more).toBe(true);
  const byCursor = await ctx.request(`/v1/search/listings?seller=${seller.id}&limit=1&cursor=${first.body.next_cursor}`);
  const byStartingAfter = await ctx.request(`/v1/search/listings?seller=${seller.id}&limit=1&starting_after=${first.body.next_cursor}`);
  expect(byStartingAfter.status, byStartingAfter.text).toBe(200);
  expect(byStartingAfter.body.data).toEqual(byCursor.body.data);
  const both = await ctx.request(`/v1/search/listings?seller=${seller.id}&cursor=${first.body.next_cursor}&starting_after=${first.body.next_cursor}`);
  expect(both.body.error).toMatchObject({ code: 'invalid_request', param: 'starting_after' });
  const altered = await ctx.request(`/v1/search/listings?seller=${seller.id}&starting_after=x${first.body.next_cursor}`);
  expect(altered.body.error).toMatchObject({ code: 'invalid_request', param: 'starting_after' });
});
