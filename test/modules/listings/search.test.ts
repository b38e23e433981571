// GET /v1/search/listings: access, what is searchable, full text, filters, sorts, bounds and
// cursors. Each test works on its own seller's listings (the `seller` filter), so tests share one
// marketplace without seeing each other. Relevance ranks the newest 4 matches here
// (SEARCH_RELEVANCE_CANDIDATES), so a few listings reach the older matches that follow them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createListing, createPublishedListing, createSeller, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

const CANDIDATES = 4;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ env: { SEARCH_RELEVANCE_CANDIDATES: String(CANDIDATES) } });
});
afterAll(() => ctx.close());

const pk = () => ctx.keys.test.publishable_key;
type Params = Record<string, string | number>;

function search(params: Params, key: string | null = pk()): Promise<TestResponse> {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]));
  return ctx.request(`/v1/search/listings?${query}`, { key });
}

async function ids(params: Params): Promise<string[]> {
  const res = await search(params);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((listing: { id: string }) => listing.id);
}

function expectError(res: TestResponse, param: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }, res.text).toEqual({
    status: 400,
    code: 'invalid_request',
    param,
  });
}

async function newSeller(): Promise<string> {
  return (await createSeller(ctx)).id;
}

function publish(seller: string, fields: Record<string, unknown> = {}) {
  return createPublishedListing(ctx, { seller, ...fields });
}

/** Open orders are not this issue's: holding every unit is written straight to the row. */
async function holdAllUnits(id: string) {
  await ctx.db.query('UPDATE listings SET quantity_reserved = quantity WHERE id = $1', [id]);
}

/** Every page of a search, `limit` at a time; `between` runs after each page. */
async function walk(params: Params, limit: number, between: (page: number) => Promise<void> = async () => {}): Promise<Json[]> {
  const seen: Json[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res = await search({ ...params, limit, ...(cursor ? { cursor } : {}) });
    expect(res.status, res.text).toBe(200);
    seen.push(...res.body.data);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      return seen;
    }
    cursor = res.body.next_cursor;
    await between(page);
  }
  throw new Error('the walk did not end');
}

describe('access', () => {
  it('answers a publishable key, with CORS for browsers, and a secret key', async () => {
    const seller = await newSeller();
    const listing = await publish(seller);
    const res = await search({ seller });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toEqual({ object: 'list', data: [listing], has_more: false, next_cursor: null });
    const preflight = await ctx.request('/v1/search/listings', { method: 'OPTIONS', key: null });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
    expect((await search({ seller }, ctx.keys.test.secret_key)).body.data).toEqual([listing]);
  });

  it('needs a key', async () => {
    const res = await search({}, null);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('api_key_missing');
  });

  it('sees the mode of its key only', async () => {
    const seller = await newSeller();
    await publish(seller);
    expect((await search({ seller }, ctx.keys.live.publishable_key)).body.data).toEqual([]);
  });
});

describe('what is searchable', () => {
  it('is published listings with something available', async () => {
    const seller = await newSeller();
    await createListing(ctx, { seller, title: 'Draft lamp' });
    const published = await publish(seller);
    const removed = await publish(seller);
    await ctx.request(`/v1/listings/${removed.id}/remove`, { method: 'POST', body: { reason: 'x' } });
    const unpublished = await publish(seller);
    await ctx.request(`/v1/listings/${unpublished.id}/unpublish`, { method: 'POST' });
    const held = await publish(seller);
    await holdAllUnits(held.id);
    const partly = await publish(seller, { quantity: 2 });
    await ctx.db.query('UPDATE listings SET quantity_reserved = 1 WHERE id = $1', [partly.id]);
    expect(await ids({ seller })).toEqual([partly.id, published.id]);
  });

  it('finds a change the moment it is written', async () => {
    const seller = await newSeller();
    const listing = await publish(seller, { title: 'Plain chair' });
    expect(await ids({ seller, q: 'zebra' })).toEqual([]);
    await ctx.request(`/v1/listings/${listing.id}`, { method: 'PATCH', body: { title: 'Zebra striped chair' } });
    expect(await ids({ seller, q: 'zebra' })).toEqual([listing.id]);
    await ctx.request(`/v1/listings/${listing.id}`, { method: 'PATCH', body: { price: { amount: 100, currency: 'USD' } } });
    expect(await ids({ seller, max_price: 100 })).toEqual([listing.id]);
    await ctx.request(`/v1/listings/${listing.id}/unpublish`, { method: 'POST' });
    expect(await ids({ seller, q: 'zebra' })).toEqual([]);
  });
});

describe('q', () => {
  it('takes words, "phrases", -word and or', async () => {
    const seller = await newSeller();
    const redShoes = await publish(seller, { title: 'Red shoes', description: 'Leather.' });
    const shoesRed = await publish(seller, { title: 'Shoes, red laces' });
    const blueShoes = await publish(seller, { title: 'Blue shoes' });
    const redHat = await publish(seller, { title: 'Hat', description: 'A red hat with a feather.' });
    expect(await ids({ seller, q: 'red shoes' })).toEqual([shoesRed.id, redShoes.id]);
    expect(await ids({ seller, q: '"red shoes"' })).toEqual([redShoes.id]);
    expect(await ids({ seller, q: 'shoes -red' })).toEqual([blueShoes.id]);
    expect(await ids({ seller, q: 'blue or hat' })).toEqual([redHat.id, blueShoes.id]);
    expect(await ids({ seller, q: 'FEATHER' })).toEqual([redHat.id]);
    expect(await ids({ seller, q: 'leather' })).toEqual([redShoes.id]);
  });

  it('ignores accents both ways', async () => {
    const seller = await newSeller();
    const accented = await publish(seller, { title: 'Café crème mug' });
    const plain = await publish(seller, { title: 'Cafe au lait bowl', description: 'Über schön.' });
    expect(await ids({ seller, q: 'cafe' })).toEqual([plain.id, accented.id]);
    expect(await ids({ seller, q: 'CAFÉ' })).toEqual([plain.id, accented.id]);
    expect(await ids({ seller, q: 'creme' })).toEqual([accented.id]);
    expect(await ids({ seller, q: 'uber schon' })).toEqual([plain.id]);
  });

  it('ranks title matches above description matches with sort=relevance', async () => {
    const seller = await newSeller();
    const inTitle = await publish(seller, { title: 'Brass lantern', description: 'Old.' });
    const inBoth = await publish(seller, { title: 'Lantern for camping', description: 'A bright lantern, lantern hook included.' });
    const inDescription = await publish(seller, { title: 'Camping kit', description: 'Tent, stove and a lantern.' });
    await publish(seller, { title: 'Camping stove' });
    expect(await ids({ seller, q: 'lantern' })).toEqual([inDescription.id, inBoth.id, inTitle.id]);
    expect(await ids({ seller, q: 'lantern', sort: 'relevance' })).toEqual([inBoth.id, inTitle.id, inDescription.id]);
  });

  it('finds nothing for text without words', async () => {
    const seller = await newSeller();
    await publish(seller);
    expect(await ids({ seller, q: '!!!' })).toEqual([]);
    expect(await ids({ seller, q: '"" -', sort: 'relevance' })).toEqual([]);
  });

  it('is at most 200 characters', async () => {
    expectError(await search({ q: 'a'.repeat(201) }), 'q');
    expect((await search({ q: 'a'.repeat(200) })).status).toBe(200);
    expectError(await search({ q: '' }), 'q');
  });

  it('with sort=relevance is needed', async () => {
    expectError(await search({ sort: 'relevance' }), 'sort');
  });
});

describe('filters', () => {
  it('category includes its descendants', async () => {
    const seller = await newSeller();
    const root = await createCategory(ctx);
    const child = await createCategory(ctx, { parent: root.id });
    const grandchild = await createCategory(ctx, { parent: child.id });
    const other = await createCategory(ctx);
    const inRoot = await publish(seller, { category: root.id });
    const inChild = await publish(seller, { category: child.id });
    const inGrandchild = await publish(seller, { category: grandchild.id });
    await publish(seller, { category: other.id });
    await publish(seller);
    expect(await ids({ seller, category: root.id })).toEqual([inGrandchild.id, inChild.id, inRoot.id]);
    expect(await ids({ seller, category: child.id })).toEqual([inGrandchild.id, inChild.id]);
    expect(await ids({ seller, category: grandchild.id })).toEqual([inGrandchild.id]);
  });

  it('category with q, attribute equality or relevance includes its descendants too', async () => {
    const seller = await newSeller();
    const root = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'finish', type: 'string' }] } });
    const child = await createCategory(ctx, { parent: root.id, attribute_schema: { attributes: [{ key: 'finish', type: 'string' }] } });
    const other = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'finish', type: 'string' }] } });
    const inRoot = await publish(seller, { category: root.id, title: 'Teak stool', attributes: { finish: 'matte' } });
    const inChild = await publish(seller, { category: child.id, title: 'Teak teak bench', attributes: { finish: 'matte' } });
    await publish(seller, { category: other.id, title: 'Teak tray', attributes: { finish: 'matte' } });
    await publish(seller, { title: 'Teak box' });
    expect(await ids({ seller, category: root.id, q: 'teak' })).toEqual([inChild.id, inRoot.id]);
    expect(await ids({ seller, category: root.id, q: 'teak', sort: 'relevance' })).toEqual([inChild.id, inRoot.id]);
    expect(await ids({ seller, category: child.id, q: 'teak' })).toEqual([inChild.id]);
    expect(await ids({ seller, category: root.id, 'attributes[finish]': 'matte' })).toEqual([inChild.id, inRoot.id]);
    expect(await ids({ seller, category: root.id, 'attributes[finish]': 'matte', q: 'stool', sort: 'price_desc' })).toEqual([inRoot.id]);
  });

  it("follows a listing's category change and a category's move at once, with q and attribute equality too", async () => {
    const seller = await newSeller();
    const schema = { attribute_schema: { attributes: [{ key: 'finish', type: 'string' }] } };
    const home = await createCategory(ctx, schema);
    const garden = await createCategory(ctx, schema);
    const furniture = await createCategory(ctx, { ...schema, parent: home.id });
    const chairs = await createCategory(ctx, { ...schema, parent: furniture.id });
    const chair = await publish(seller, { category: chairs.id, title: 'Wicker chair', attributes: { finish: 'natural' } });
    const table = await publish(seller, { category: furniture.id, title: 'Wicker table', attributes: { finish: 'natural' } });
    // Each form the statement takes: text, relevance, attribute equality (GIN), category alone (btree).
    const found = (category: string) =>
      Promise.all([
        ids({ seller, category, q: 'wicker' }),
        ids({ seller, category, q: 'wicker', sort: 'relevance' }),
        ids({ seller, category, 'attributes[finish]': 'natural' }),
        ids({ seller, category }),
      ]);
    expect(await found(home.id)).toEqual(Array(4).fill([table.id, chair.id]));
    expect(await found(garden.id)).toEqual(Array(4).fill([]));

    // Furniture (and chairs below it) move from home to garden: both listings follow.
    const moved = await ctx.request(`/v1/categories/${furniture.id}`, { method: 'PATCH', body: { parent: garden.id } });
    expect(moved.status, moved.text).toBe(200);
    expect(await found(home.id)).toEqual(Array(4).fill([]));
    expect(await found(garden.id)).toEqual(Array(4).fill([table.id, chair.id]));
    expect(await found(chairs.id)).toEqual(Array(4).fill([chair.id]));

    // Chairs becomes a root of its own; then the chair moves to home.
    await ctx.request(`/v1/categories/${chairs.id}`, { method: 'PATCH', body: { parent: null } });
    expect(await found(garden.id)).toEqual(Array(4).fill([table.id]));
    expect(await found(chairs.id)).toEqual(Array(4).fill([chair.id]));
    const changed = await ctx.request(`/v1/listings/${chair.id}`, { method: 'PATCH', body: { category: home.id } });
    expect(changed.status, changed.text).toBe(200);
    expect(await found(chairs.id)).toEqual(Array(4).fill([]));
    expect(await found(home.id)).toEqual(Array(4).fill([chair.id]));
    // Without a category it is in no category's results, and still found by text.
    await ctx.request(`/v1/listings/${chair.id}`, { method: 'PATCH', body: { category: null, attributes: {} } });
    expect(await found(home.id)).toEqual(Array(4).fill([]));
    expect(await ids({ seller, q: 'wicker' })).toEqual([table.id, chair.id]);
  });

  it('refuses an unknown category', async () => {
    expectError(await search({ category: 'cat_missing' }), 'category');
  });

  it('seller', async () => {
    const seller = await newSeller();
    const mine = await publish(seller);
    await publish(await newSeller());
    expect(await ids({ seller })).toEqual([mine.id]);
    expect(await ids({ seller: 'sel_nobody' })).toEqual([]);
  });

  it('min_price and max_price, inclusive', async () => {
    const seller = await newSeller();
    const at100 = await publish(seller, { price: { amount: 100, currency: 'USD' } });
    const at200 = await publish(seller, { price: { amount: 200, currency: 'USD' } });
    const at300 = await publish(seller, { price: { amount: 300, currency: 'USD' } });
    expect(await ids({ seller, min_price: 200 })).toEqual([at300.id, at200.id]);
    expect(await ids({ seller, max_price: 200 })).toEqual([at200.id, at100.id]);
    expect(await ids({ seller, min_price: 150, max_price: 250 })).toEqual([at200.id]);
    expect(await ids({ seller, min_price: 200, max_price: 200 })).toEqual([at200.id]);
  });

  it('refuses bad prices', async () => {
    expectError(await search({ min_price: 300, max_price: 200 }), 'max_price');
    expectError(await search({ min_price: 'cheap' }), 'min_price');
    expectError(await search({ max_price: -1 }), 'max_price');
    expectError(await search({ min_price: 1.5 }), 'min_price');
    expectError(await search({ max_price: 100_000_000_000 }), 'max_price');
  });

  describe('attributes', () => {
    let seller: string;
    let shoes: { id: string };
    let kids: { id: string };
    let s40: { id: string };
    let s42: { id: string };
    let s44: { id: string };
    let kid: { id: string };

    beforeAll(async () => {
      seller = await newSeller();
      shoes = await createCategory(ctx, {
        attribute_schema: {
          attributes: [
            { key: 'color', type: 'string' },
            { key: 'size', type: 'integer' },
            { key: 'weight', type: 'number' },
          ],
        },
      });
      // A descendant whose `size` is text: a numeric filter on the parent must skip it, not fail.
      kids = await createCategory(ctx, { parent: shoes.id, attribute_schema: { attributes: [{ key: 'size', type: 'string' }] } });
      s40 = await publish(seller, { category: shoes.id, attributes: { color: 'red', size: '40', weight: '0.8' } });
      s42 = await publish(seller, { category: shoes.id, attributes: { color: 'blue', size: '42', weight: '1.25' } });
      s44 = await publish(seller, { category: shoes.id, attributes: { color: 'red', size: '44' } });
      kid = await publish(seller, { category: kids.id, attributes: { size: 'XL' } });
    });

    it('attributes[key]=value compares the stored text', async () => {
      expect(await ids({ seller, 'attributes[color]': 'red' })).toEqual([s44.id, s40.id]);
      expect(await ids({ seller, 'attributes[color]': 'Red' })).toEqual([]);
      expect(await ids({ seller, 'attributes[size]': 'XL' })).toEqual([kid.id]);
      expect(await ids({ seller, 'attributes[color]': 'red', 'attributes[size]': '44' })).toEqual([s44.id]);
    });

    it('attributes[key][gte|lte]=n bounds a number of the category', async () => {
      const category = shoes.id;
      expect(await ids({ seller, category, 'attributes[size][gte]': 42 })).toEqual([s44.id, s42.id]);
      expect(await ids({ seller, category, 'attributes[size][lte]': 42 })).toEqual([s42.id, s40.id]);
      expect(await ids({ seller, category, 'attributes[size][gte]': 41, 'attributes[size][lte]': 43 })).toEqual([s42.id]);
      expect(await ids({ seller, category, 'attributes[weight][gte]': '1.2' })).toEqual([s42.id]);
      expect(await ids({ seller, category, 'attributes[weight][lte]': '-1' })).toEqual([]);
      expect(await ids({ seller, category, 'attributes[color]': 'red', 'attributes[size][lte]': 42 })).toEqual([s40.id]);
    });

    it('refuses a numeric filter without a category, on a non-number, or with a bad number', async () => {
      expectError(await search({ 'attributes[size][gte]': 40 }), 'attributes[size][gte]');
      expectError(await search({ category: shoes.id, 'attributes[color][lte]': 4 }), 'attributes[color][lte]');
      expectError(await search({ category: shoes.id, 'attributes[height][gte]': 4 }), 'attributes[height][gte]');
      expectError(await search({ category: kids.id, 'attributes[size][gte]': 4 }), 'attributes[size][gte]');
      expectError(await search({ category: shoes.id, 'attributes[size][gte]': 'big' }), 'attributes[size][gte]');
      expectError(await search({ category: shoes.id, 'attributes[size][lte]': '1e3' }), 'attributes[size][lte]');
    });

    it('refuses a parameter it does not know', async () => {
      expectError(await search({ 'attributes[size][gt]': 40 }), 'attributes[size][gt]');
      expectError(await search({ 'attributes[a b]': 'x' }), 'attributes[a b]');
      expectError(await search({ colour: 'red' }), 'colour');
      expectError(await search({ ending_before: 'lst_x' }), 'ending_before');
    });
  });
});

describe('sorts and bounds', () => {
  it('newest by default, price_asc and price_desc with ties by id', async () => {
    const seller = await newSeller();
    const a = await publish(seller, { price: { amount: 500, currency: 'USD' } });
    const b = await publish(seller, { price: { amount: 100, currency: 'USD' } });
    const c = await publish(seller, { price: { amount: 500, currency: 'USD' } });
    const d = await publish(seller, { price: { amount: 900, currency: 'USD' } });
    expect(await ids({ seller })).toEqual([d.id, c.id, b.id, a.id]);
    expect(await ids({ seller, sort: 'newest' })).toEqual([d.id, c.id, b.id, a.id]);
    expect(await ids({ seller, sort: 'price_asc' })).toEqual([b.id, a.id, c.id, d.id]);
    expect(await ids({ seller, sort: 'price_desc' })).toEqual([d.id, c.id, a.id, b.id]);
  });

  it('refuses an unknown sort and a limit out of 1 to 100', async () => {
    expectError(await search({ sort: 'cheapest' }), 'sort');
    expectError(await search({ limit: 0 }), 'limit');
    expectError(await search({ limit: 101 }), 'limit');
    expectError(await search({ limit: 'ten' }), 'limit');
    expect((await search({ limit: 100 })).status).toBe(200);
  });

  it('limit sizes the page', async () => {
    const seller = await newSeller();
    for (let i = 0; i < 3; i++) await publish(seller);
    const res = await search({ seller, limit: 2 });
    expect(res.body.data).toHaveLength(2);
    expect(res.body.has_more).toBe(true);
    expect(typeof res.body.next_cursor).toBe('string');
  });
});

describe('cursors', () => {
  /**
   * Walks a search two at a time while, between pages, listings are created, changed, sold and
   * removed. Every listing that stays searchable throughout must come exactly once, in order.
   */
  async function walkWhileChanging(sort: string, order: (a: Json, b: Json) => number) {
    const seller = await newSeller();
    const prices = [700, 300, 500, 300, 900, 100, 500, 800, 200, 600];
    const listings: Json[] = [];
    for (const amount of prices) listings.push(await publish(seller, { title: 'Walking lamp', price: { amount, currency: 'USD' } }));
    const gone = new Set<string>();
    const seen = await walk({ seller, sort, q: 'lamp' }, 2, async (page) => {
      await publish(seller, { title: `Walking lamp ${page}`, price: { amount: 400 + page, currency: 'USD' } });
      const victim = listings[(page * 3 + 1) % listings.length]!;
      if (page % 2 === 0 && !gone.has(victim.id)) {
        await holdAllUnits(victim.id);
        gone.add(victim.id);
      } else {
        await ctx.request(`/v1/listings/${victim.id}`, { method: 'PATCH', body: { description: `changed on page ${page}` } });
      }
    });
    const seenIds = seen.map((listing) => listing.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    for (const listing of listings) if (!gone.has(listing.id)) expect(seenIds).toContain(listing.id);
    expect([...seen].sort(order).map((listing) => listing.id)).toEqual(seenIds);
  }

  const byId = (a: Json, b: Json) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  it('newest: every result once, in order, while listings change', async () => {
    await walkWhileChanging('newest', (a, b) => byId(b, a));
  });

  it('price_asc: every result once, in order, while listings change', async () => {
    await walkWhileChanging('price_asc', (a, b) => a.price.amount - b.price.amount || byId(a, b));
  });

  it('price_desc: every result once, in order, while listings change', async () => {
    await walkWhileChanging('price_desc', (a, b) => b.price.amount - a.price.amount || byId(b, a));
  });

  it('relevance: the newest candidates ranked, then the older matches newest first, each once', async () => {
    const seller = await newSeller();
    const made: Json[] = [];
    // Oldest first; the newest CANDIDATES (4) are ranked, the 3 before them follow by age.
    for (const title of ['Oak desk', 'Oak oak desk', 'Desk', 'Oak table', 'Desk of oak', 'Small desk', 'Oak desk oak shelf']) {
      made.push(await publish(seller, { title, description: 'Made of oak.' }));
    }
    const [old1, old2, old3, c1, c2, c3, c4] = made.map((listing) => listing.id) as string[];
    const ranked = await ids({ seller, q: 'oak', sort: 'relevance', limit: 4 });
    expect(new Set(ranked)).toEqual(new Set([c1, c2, c3, c4]));
    expect(ranked.slice(0, 1)).toEqual([c4]); // the title with "oak" twice ranks first
    expect(ranked[3]).toBe(c3); // "oak" only in the description ranks last
    let created = 0;
    const seen = await walk({ seller, q: 'oak', sort: 'relevance' }, 2, async () => {
      created++;
      await publish(seller, { title: `Oak oak oak chair ${created}` });
    });
    expect(seen.map((listing) => listing.id)).toEqual([...ranked, old3, old2, old1]);
  });

  it('refuses an altered cursor', async () => {
    const seller = await newSeller();
    for (let i = 0; i < 3; i++) await publish(seller);
    const { next_cursor: cursor } = (await search({ seller, limit: 1 })).body;
    const [payload, signature] = (cursor as string).split('.') as [string, string];
    const position = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...position, id: 'lst_zzzzzzzzzzzzzzzzzzzzzzzzzz' })).toString('base64url');
    expectError(await search({ seller, limit: 1, cursor: `${forged}.${signature}` }), 'cursor');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expectError(await search({ seller, limit: 1, cursor: `${payload}.${flipped}` }), 'cursor');
    expectError(await search({ seller, limit: 1, cursor: 'not-a-cursor' }), 'cursor');
    expect((await search({ seller, limit: 2, cursor })).status).toBe(200);
  });

  it('refuses a cursor of another search, sort, mode or marketplace', async () => {
    const seller = await newSeller();
    for (let i = 0; i < 3; i++) await publish(seller, { title: 'Foreign lamp' });
    const { next_cursor: cursor } = (await search({ seller, limit: 1 })).body;
    expectError(await search({ seller: await newSeller(), limit: 1, cursor }), 'cursor');
    expectError(await search({ seller, q: 'lamp', limit: 1, cursor }), 'cursor');
    expectError(await search({ seller, sort: 'price_asc', limit: 1, cursor }), 'cursor');
    expectError(await search({ seller, limit: 1, cursor }, ctx.keys.live.publishable_key), 'cursor');
    const other = await startTestApp();
    try {
      const res = await other.request(`/v1/search/listings?${new URLSearchParams({ seller, limit: '1', cursor })}`, {
        key: other.keys.test.publishable_key,
      });
      expectError(res, 'cursor');
    } finally {
      await other.close();
    }
  });
});
