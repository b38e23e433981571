// The listing state machine over HTTP: publish,
// unpublish, remove, update, expiry on the test clock, and the events of each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCategory,
  createListing,
  createPublishedListing,
  createSeller,
  createVerifiedSeller,
  storedEvents,
  suspendSeller,
} from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const UNKNOWN_LISTING = 'lst_01jd0000000000000000000000';
const post = (url: string, body?: unknown) => ctx.request(url, { method: 'POST', ...(body === undefined ? {} : { body }) });
const patch = (url: string, body: unknown) => ctx.request(url, { method: 'PATCH', body });
const publish = (id: string) => post(`/v1/listings/${id}/publish`);
const unpublish = (id: string) => post(`/v1/listings/${id}/unpublish`);
const remove = (id: string, reason = 'Sold elsewhere.') => post(`/v1/listings/${id}/remove`, { reason });

function expectError(res: TestResponse, status: number, code: string, param?: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({ status, code, param });
}

async function setSettings(settings: Record<string, unknown>) {
  await ctx.db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [
    ctx.marketplaceId,
    JSON.stringify(settings),
    'test',
  ]);
}

async function testNow(): Promise<number> {
  return Date.parse((await ctx.request('/v1/test_helpers/clock')).body.now);
}

async function advance(seconds: number) {
  const res = await post('/v1/test_helpers/clock/advance', { seconds });
  expect(res.status, res.text).toBe(200);
}

/** Moves a listing into a status through the API. */
async function listingIn(status: 'draft' | 'published' | 'sold' | 'expired' | 'removed') {
  if (status === 'draft') return createListing(ctx);
  if (status === 'sold') {
    // Orders (another module) sell listings; until they exist, set the state the way they will.
    const listing = await createPublishedListing(ctx);
    await ctx.db.query("UPDATE listings SET status = 'sold', quantity_sold = quantity WHERE id = $1", [listing.id]);
    return { ...listing, status: 'sold' };
  }
  if (status === 'removed') {
    const listing = await createListing(ctx);
    return (await remove(listing.id)).body;
  }
  if (status === 'published') return createPublishedListing(ctx);
  const listing = await createPublishedListing(ctx, { expires_at: new Date((await testNow()) + 60_000).toISOString() });
  await advance(61);
  const expired = (await ctx.request(`/v1/listings/${listing.id}`)).body;
  expect(expired.status).toBe('expired');
  return expired;
}

describe('publish', () => {
  it('moves a draft to published, sets published_at and emits listing.published', async () => {
    const listing = await createListing(ctx);
    const res = await publish(listing.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: listing.id, status: 'published', published_at: expect.any(String) });
    expect(res.body.published_at).toBe(res.body.updated_at);
    const events = await storedEvents(ctx, listing.id);
    expect(events.map((e) => e.type)).toEqual(['listing.created', 'listing.published']);
    expect(events[1]!.data.object).toEqual(res.body);
  });

  it('takes no fields: an unknown one is refused', async () => {
    const listing = await createListing(ctx);
    expectError(await post(`/v1/listings/${listing.id}/publish`, { force: true }), 400, 'invalid_request', 'force');
    expect((await post(`/v1/listings/${listing.id}/publish`, {})).status).toBe(200);
  });

  it('refuses a suspended seller: 403 seller_suspended', async () => {
    const seller = await createSeller(ctx);
    const listing = await createListing(ctx, { seller: seller.id });
    await suspendSeller(ctx, seller.id);
    expectError(await publish(listing.id), 403, 'seller_suspended');
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('draft');
  });

  it('refuses an unverified seller while verification is required: 403 seller_not_verified', async () => {
    const unverified = await createListing(ctx);
    const verified = await createListing(ctx, { seller: (await createVerifiedSeller(ctx)).id });
    await setSettings({ seller_verification_required: true });
    try {
      expectError(await publish(unverified.id), 403, 'seller_not_verified');
      expect((await publish(verified.id)).status).toBe(200);
    } finally {
      await setSettings({ seller_verification_required: false });
    }
    expect((await publish(unverified.id)).status).toBe(200);
  });

  it('refuses a prohibited category: 403 category_prohibited; a published listing stays when its category becomes prohibited', async () => {
    const category = await createCategory(ctx);
    const draft = await createListing(ctx, { category: category.id });
    const published = await createPublishedListing(ctx, { category: category.id });
    expect((await patch(`/v1/categories/${category.id}`, { prohibited: true })).status).toBe(200);
    expectError(await publish(draft.id), 403, 'category_prohibited', 'category');
    expect((await ctx.request(`/v1/listings/${published.id}`)).body.status).toBe('published');
  });

  it('refuses prohibited words as whole words, case-insensitively, naming the field: 403 prohibited_content', async () => {
    await setSettings({ prohibited_words: ['replica', 'knock off'] });
    try {
      const inTitle = await createListing(ctx, { title: 'REPLICA watch' });
      expectError(await publish(inTitle.id), 403, 'prohibited_content', 'title');
      const inDescription = await createListing(ctx, { description: 'A genuine knock off, honestly.' });
      expectError(await publish(inDescription.id), 403, 'prohibited_content', 'description');
      const inAttribute = await createListing(ctx, { attributes: { brand: 'Replica.' } });
      expectError(await publish(inAttribute.id), 403, 'prohibited_content', 'attributes.brand');
      // Part of a longer word is not the word.
      const clean = await createListing(ctx, { title: 'Replicas and replicating machines', description: 'knockoff' });
      expect((await publish(clean.id)).status).toBe(200);
    } finally {
      await setSettings({ prohibited_words: [] });
    }
  });

  it('finds a prohibited phrase whatever whitespace separates its words; a blank or padded word matches as its words', async () => {
    await setSettings({ prohibited_words: ['knock off', '  fake  ', ' '] });
    try {
      for (const description of ['A KNOCK  OFF.', 'a knock\noff', 'knock\toff']) {
        const listing = await createListing(ctx, { description });
        expectError(await publish(listing.id), 403, 'prohibited_content', 'description');
      }
      const padded = await createListing(ctx, { title: 'Fake bag' });
      expectError(await publish(padded.id), 403, 'prohibited_content', 'title');
      // A blank entry prohibits nothing.
      const clean = await createListing(ctx, { title: 'A knocked off vase - genuine ( really )' });
      expect((await publish(clean.id)).status).toBe(200);
    } finally {
      await setSettings({ prohibited_words: [] });
    }
  });

  it('checks the rules in order: state, seller, category, words', async () => {
    const seller = await createSeller(ctx);
    const category = await createCategory(ctx, { prohibited: true });
    const listing = await createListing(ctx, { seller: seller.id, category: category.id, title: 'Replica' });
    await suspendSeller(ctx, seller.id);
    await setSettings({ prohibited_words: ['replica'] });
    try {
      expectError(await publish(listing.id), 403, 'seller_suspended');
      expect((await post(`/v1/sellers/${seller.id}/unsuspend`)).status).toBe(200);
      expectError(await publish(listing.id), 403, 'category_prohibited', 'category');
      expect((await patch(`/v1/categories/${category.id}`, { prohibited: false })).status).toBe(200);
      expectError(await publish(listing.id), 403, 'prohibited_content', 'title');
      await remove(listing.id);
      expectError(await publish(listing.id), 409, 'invalid_state');
    } finally {
      await setSettings({ prohibited_words: [] });
    }
  });

  it('publishes an expired listing again when expires_at is null or in the future', async () => {
    const expired = await listingIn('expired');
    expectError(await publish(expired.id), 409, 'invalid_state');
    const later = new Date((await testNow()) + 3_600_000).toISOString();
    expect((await patch(`/v1/listings/${expired.id}`, { expires_at: later })).body.status).toBe('expired');
    const res = await publish(expired.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'published', expires_at: later });
    const again = await listingIn('expired');
    expect((await patch(`/v1/listings/${again.id}`, { expires_at: null })).status).toBe(200);
    expect((await publish(again.id)).body.status).toBe('published');
  });

  it('refuses a draft whose expires_at has passed: 409 invalid_state', async () => {
    const listing = await createListing(ctx, { expires_at: new Date((await testNow()) + 10_000).toISOString() });
    await advance(11);
    const res = await publish(listing.id);
    expectError(res, 409, 'invalid_state');
    expect(res.body.error.message).toContain('expires_at');
  });

  it('404s an unknown listing and one of the other mode', async () => {
    expectError(await publish(UNKNOWN_LISTING), 404, 'resource_missing');
    const live = await createListing(ctx, {}, ctx.keys.live.secret_key);
    expectError(await publish(live.id), 404, 'resource_missing');
  });
});

describe('the state table', () => {
  // from-state × operation → the answer.
  const table: Array<[string, 'draft' | 'published' | 'sold' | 'expired' | 'removed', number, string | null]> = [
    ['publish', 'published', 409, 'published'],
    ['publish', 'sold', 409, 'sold'],
    ['publish', 'removed', 409, 'removed'],
    ['unpublish', 'draft', 409, 'draft'],
    ['unpublish', 'published', 200, 'draft'],
    ['unpublish', 'sold', 409, 'sold'],
    ['unpublish', 'expired', 409, 'expired'],
    ['unpublish', 'removed', 409, 'removed'],
    ['remove', 'draft', 200, 'removed'],
    ['remove', 'published', 200, 'removed'],
    ['remove', 'sold', 200, 'removed'],
    ['remove', 'expired', 200, 'removed'],
    ['remove', 'removed', 409, 'removed'],
    ['update', 'draft', 200, 'draft'],
    ['update', 'published', 200, 'published'],
    ['update', 'sold', 409, 'sold'],
    ['update', 'expired', 200, 'expired'],
    ['update', 'removed', 409, 'removed'],
  ];
  it.each(table)('%s from %s answers %i', async (operation, from, status, stateOrTo) => {
    const listing = await listingIn(from);
    const res =
      operation === 'update'
        ? await patch(`/v1/listings/${listing.id}`, { title: 'Changed title' })
        : operation === 'remove'
          ? await remove(listing.id)
          : await post(`/v1/listings/${listing.id}/${operation}`);
    expect(res.status).toBe(status);
    if (status === 200) {
      expect(res.body.status).toBe(stateOrTo);
    } else {
      expect(res.body.error.code).toBe('invalid_state');
      // The message names the state: "The listing is removed; it cannot be published."
      expect(res.body.error.message).toContain(`The listing is ${stateOrTo};`);
    }
  });
});

describe('unpublish', () => {
  it('moves published to draft, cancels its expiry and emits listing.unpublished', async () => {
    const listing = await createPublishedListing(ctx, { expires_at: new Date((await testNow()) + 60_000).toISOString() });
    const res = await unpublish(listing.id);
    expect(res.body.status).toBe('draft');
    await advance(61);
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('draft');
    const events = await storedEvents(ctx, listing.id);
    expect(events.map((e) => e.type)).toEqual(['listing.created', 'listing.published', 'listing.unpublished']);
    expect(events[2]!.data.object).toEqual(res.body);
  });
});

describe('remove', () => {
  it('keeps the reason and emits listing.removed', async () => {
    const listing = await createPublishedListing(ctx);
    const res = await remove(listing.id, 'Counterfeit.');
    expect(res.body).toMatchObject({ status: 'removed', removed_reason: 'Counterfeit.' });
    const events = await storedEvents(ctx, listing.id);
    expect(events.map((e) => e.type)).toEqual(['listing.created', 'listing.published', 'listing.removed']);
    expect(events[2]!.data.object).toEqual(res.body);
  });

  it('needs a reason of 1 to 500 characters that is not blank', async () => {
    const listing = await createListing(ctx);
    expectError(await post(`/v1/listings/${listing.id}/remove`, {}), 400, 'invalid_request', 'reason');
    expectError(await post(`/v1/listings/${listing.id}/remove`), 400, 'invalid_request', 'reason');
    expectError(await remove(listing.id, ''), 400, 'invalid_request', 'reason');
    expectError(await remove(listing.id, '   '), 400, 'invalid_request', 'reason');
    expectError(await remove(listing.id, '\t\n'), 400, 'invalid_request', 'reason');
    expectError(await remove(listing.id, 'r'.repeat(501)), 400, 'invalid_request', 'reason');
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('draft');
    expect((await remove(listing.id, 'r'.repeat(500))).body).toMatchObject({ status: 'removed', removed_reason: 'r'.repeat(500) });
  });

  it('404s an unknown listing', async () => {
    expectError(await remove(UNKNOWN_LISTING), 404, 'resource_missing');
  });

  it('replays under the same Idempotency-Key instead of answering 409', async () => {
    const listing = await createListing(ctx);
    const send = () =>
      ctx.request(`/v1/listings/${listing.id}/remove`, { method: 'POST', body: { reason: 'Once.' }, headers: { 'idempotency-key': `rm-${listing.id}` } });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await storedEvents(ctx, listing.id)).map((e) => e.type)).toEqual(['listing.created', 'listing.removed']);
  });
});

describe('update', () => {
  it('changes fields and emits listing.updated with previous_attributes', async () => {
    const listing = await createListing(ctx, { metadata: { a: '1' } });
    const res = await patch(`/v1/listings/${listing.id}`, {
      title: 'New title',
      description: null,
      price: { amount: 5000, currency: 'usd' },
      quantity: 2,
      metadata: { b: '2' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'New title',
      description: null,
      price: { amount: 5000, currency: 'USD' },
      quantity: 2,
      quantity_available: 2,
      metadata: { b: '2' },
    });
    const events = await storedEvents(ctx, listing.id);
    expect(events.map((e) => e.type)).toEqual(['listing.created', 'listing.updated']);
    expect(events[1]!.data.object).toEqual(res.body);
    expect(events[1]!.data.previous_attributes).toEqual({
      title: 'Trail running shoes',
      price: { amount: 4500, currency: 'USD' },
      quantity: 1,
      quantity_available: 1,
      metadata: { a: '1' },
    });
  });

  it('emits nothing when nothing changes', async () => {
    const listing = await createListing(ctx);
    expect((await patch(`/v1/listings/${listing.id}`, { title: listing.title })).body).toEqual(listing);
    expect(await storedEvents(ctx, listing.id)).toHaveLength(1);
  });

  it('emits nothing when metadata and attributes come again with their keys in another order', async () => {
    const listing = await createListing(ctx, { metadata: { zz: '1', a: '2' }, attributes: { zz: '1', a: '2' } });
    const res = await patch(`/v1/listings/${listing.id}`, { metadata: { zz: '1', a: '2' }, attributes: { a: '2', zz: '1' } });
    expect(res.body).toEqual(listing);
    expect(await storedEvents(ctx, listing.id)).toHaveLength(1);
  });

  it('accepts the current expires_at sent back after it has passed; only a changed one must be in the future', async () => {
    // A client GETs an expired listing and PATCHes it back with a new title.
    const expired = await listingIn('expired');
    const { category, description, price, quantity, attributes, metadata, expires_at } = expired;
    const res = await patch(`/v1/listings/${expired.id}`, {
      title: 'Changed title',
      ...{ category, description, price, quantity, attributes, metadata, expires_at },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'expired', title: 'Changed title', expires_at: expired.expires_at });
    // The same instant written another way is the same time.
    const sameInstant = expired.expires_at.replace('Z', '+00:00');
    expect((await patch(`/v1/listings/${expired.id}`, { expires_at: sameInstant })).body.expires_at).toBe(expired.expires_at);
    // A draft whose expires_at passed (drafts do not expire) likewise.
    const draft = await createListing(ctx, { expires_at: new Date((await testNow()) + 10_000).toISOString() });
    await advance(11);
    expect((await patch(`/v1/listings/${draft.id}`, { title: 'Renamed', expires_at: draft.expires_at })).body.title).toBe('Renamed');
    // Another time in the past is a change, and is refused.
    const earlier = new Date(Date.parse(expired.expires_at) - 1).toISOString();
    expectError(await patch(`/v1/listings/${expired.id}`, { expires_at: earlier }), 400, 'invalid_request', 'expires_at');
    expectError(await patch(`/v1/listings/${draft.id}`, { expires_at: earlier }), 400, 'invalid_request', 'expires_at');
    // Publishing still needs a later expires_at (or null) first.
    expectError(await publish(expired.id), 409, 'invalid_state');
  });

  it('refuses a quantity below what open orders hold or sold: 400 param quantity', async () => {
    const listing = await createListing(ctx, { quantity: 10 });
    // Orders are another module; hold units the way they will.
    await ctx.db.query('UPDATE listings SET quantity_reserved = 3, quantity_sold = 2 WHERE id = $1', [listing.id]);
    expectError(await patch(`/v1/listings/${listing.id}`, { quantity: 4 }), 400, 'invalid_request', 'quantity');
    const res = await patch(`/v1/listings/${listing.id}`, { quantity: 5 });
    expect(res.body).toMatchObject({ quantity: 5, quantity_available: 0 });
  });

  it('answers every bound at the limit and one past it', async () => {
    const listing = await createListing(ctx);
    const url = `/v1/listings/${listing.id}`;
    expectError(await patch(url, { title: 't'.repeat(201) }), 400, 'invalid_request', 'title');
    expect((await patch(url, { title: 't'.repeat(200) })).status).toBe(200);
    expectError(await patch(url, { description: 'd'.repeat(20001) }), 400, 'invalid_request', 'description');
    expect((await patch(url, { description: 'd'.repeat(20000) })).status).toBe(200);
    expectError(await patch(url, { quantity: 0 }), 400, 'invalid_request', 'quantity');
    expectError(await patch(url, { quantity: 100001 }), 400, 'invalid_request', 'quantity');
    expect((await patch(url, { quantity: 100000 })).status).toBe(200);
    expect((await patch(url, { quantity: 1 })).status).toBe(200);
    expectError(await patch(url, { price: { amount: 100_000_000_000, currency: 'USD' } }), 400, 'invalid_request', 'price.amount');
    expect((await patch(url, { price: { amount: 99_999_999_999, currency: 'USD' } })).body.price).toEqual({ amount: 99_999_999_999, currency: 'USD' });
    expect((await ctx.request(url)).body.price.amount).toBe(99_999_999_999);
    expectError(await patch(url, { price: { amount: 1, currency: 'EUR' } }), 400, 'invalid_request', 'price.currency');
    expectError(await patch(url, { expires_at: '2001-01-01T00:00:00.000Z' }), 400, 'invalid_request', 'expires_at');
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]));
    expect((await patch(url, { metadata: fifty })).body.metadata).toEqual(fifty);
    expectError(await patch(url, { metadata: { ...fifty, k50: 'v' } }), 400, 'invalid_request', 'metadata');
    expectError(await patch(url, { metadata: { ['k'.repeat(41)]: 'v' } }), 400, 'invalid_request', 'metadata');
    expectError(await patch(url, { metadata: { note: 'v'.repeat(501) } }), 400, 'invalid_request', 'metadata.note');
    expect((await ctx.request(url)).body.metadata).toEqual(fifty);
    expect((await patch(url, { attributes: { ['k'.repeat(40)]: 'v' } })).body.attributes).toEqual({ ['k'.repeat(40)]: 'v' });
    expectError(await patch(url, { attributes: { ['k'.repeat(41)]: 'v' } }), 400, 'invalid_request', 'attributes');
    expectError(await patch(url, { seller: 'sel_01jd0000000000000000000000' }), 400, 'invalid_request', 'seller');
    expectError(await patch(url, { category: 'cat_01jd0000000000000000000000' }), 404, 'resource_missing', 'category');
    expectError(await patch(`/v1/listings/${UNKNOWN_LISTING}`, { title: 'x' }), 404, 'resource_missing');
  });

  it('checks attributes against the category, also when only the category changes', async () => {
    const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size', type: 'enum', options: ['S', 'M'] }] } });
    const listing = await createListing(ctx, { attributes: { colour: 'red' } });
    expectError(await patch(`/v1/listings/${listing.id}`, { category: category.id }), 400, 'invalid_request', 'attributes.colour');
    const res = await patch(`/v1/listings/${listing.id}`, { category: category.id, attributes: { size: 'M' } });
    expect(res.body).toMatchObject({ category: category.id, attributes: { size: 'M' } });
    expectError(await patch(`/v1/listings/${listing.id}`, { attributes: { size: 'XL' } }), 400, 'invalid_request', 'attributes.size');
    expect((await patch(`/v1/listings/${listing.id}`, { category: null, attributes: { size: 'XL' } })).status).toBe(200);
  });

  it('re-checks prohibited words and the category on a published listing only', async () => {
    const draft = await createListing(ctx);
    const published = await createPublishedListing(ctx);
    const prohibited = await createCategory(ctx, { prohibited: true });
    await setSettings({ prohibited_words: ['replica'] });
    try {
      expect((await patch(`/v1/listings/${draft.id}`, { title: 'Replica' })).status).toBe(200);
      expectError(await patch(`/v1/listings/${published.id}`, { title: 'Replica' }), 403, 'prohibited_content', 'title');
      expectError(await patch(`/v1/listings/${published.id}`, { attributes: { note: 'a replica' } }), 403, 'prohibited_content', 'attributes.note');
      expectError(await patch(`/v1/listings/${published.id}`, { category: prohibited.id }), 403, 'category_prohibited', 'category');
      expect((await patch(`/v1/listings/${draft.id}`, { category: prohibited.id })).status).toBe(200);
      expect((await ctx.request(`/v1/listings/${published.id}`)).body.title).toBe('Trail running shoes');
    } finally {
      await setSettings({ prohibited_words: [] });
    }
  });
});

describe('expiry on the test clock', () => {
  it('expires a published listing when expires_at comes, with listing.expired', async () => {
    const expiresAt = new Date((await testNow()) + 3_600_000).toISOString();
    const listing = await createPublishedListing(ctx, { expires_at: expiresAt });
    await advance(3599);
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('published');
    await advance(1);
    const expired = (await ctx.request(`/v1/listings/${listing.id}`)).body;
    expect(expired).toMatchObject({ status: 'expired', expires_at: expiresAt, published_at: listing.published_at });
    const events = await storedEvents(ctx, listing.id);
    expect(events.map((e) => e.type)).toEqual(['listing.created', 'listing.published', 'listing.expired']);
    expect(events[2]!.data.object).toEqual(expired);
  });

  it('follows a changed expires_at, and none when it is cleared', async () => {
    const now = await testNow();
    const moved = await createPublishedListing(ctx, { expires_at: new Date(now + 60_000).toISOString() });
    const cleared = await createPublishedListing(ctx, { expires_at: new Date(now + 60_000).toISOString() });
    await patch(`/v1/listings/${moved.id}`, { expires_at: new Date(now + 600_000).toISOString() });
    await patch(`/v1/listings/${cleared.id}`, { expires_at: null });
    await advance(120);
    expect((await ctx.request(`/v1/listings/${moved.id}`)).body.status).toBe('published');
    expect((await ctx.request(`/v1/listings/${cleared.id}`)).body.status).toBe('published');
    await advance(600);
    expect((await ctx.request(`/v1/listings/${moved.id}`)).body.status).toBe('expired');
    expect((await ctx.request(`/v1/listings/${cleared.id}`)).body.status).toBe('published');
  });

  it('does not expire a draft or a removed listing', async () => {
    const now = await testNow();
    const draft = await createListing(ctx, { expires_at: new Date(now + 60_000).toISOString() });
    const removed = await createPublishedListing(ctx, { expires_at: new Date(now + 60_000).toISOString() });
    await remove(removed.id);
    await advance(61);
    expect((await ctx.request(`/v1/listings/${draft.id}`)).body.status).toBe('draft');
    expect((await ctx.request(`/v1/listings/${removed.id}`)).body.status).toBe('removed');
  });
});

describe('seller erasure', () => {
  it('removes every listing of the seller that is not removed, with seller_erased and listing.removed', async () => {
    const seller = await createSeller(ctx);
    const now = await testNow();
    const draft = await createListing(ctx, { seller: seller.id });
    const published = await createPublishedListing(ctx, { seller: seller.id, expires_at: new Date(now + 60_000).toISOString() });
    const removed = await createListing(ctx, { seller: seller.id });
    await remove(removed.id, 'Earlier.');
    const other = await createListing(ctx);
    expect((await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' })).status).toBe(200);
    for (const id of [draft.id, published.id]) {
      const listing = (await ctx.request(`/v1/listings/${id}`)).body;
      expect(listing).toMatchObject({ status: 'removed', removed_reason: 'seller_erased' });
      const events = await storedEvents(ctx, id);
      expect(events.at(-1)!.type).toBe('listing.removed');
      expect(events.at(-1)!.data.object).toEqual(listing);
    }
    expect((await ctx.request(`/v1/listings/${removed.id}`)).body.removed_reason).toBe('Earlier.');
    expect((await ctx.request(`/v1/listings/${other.id}`)).body.status).toBe('draft');
    const timers = await ctx.db.query('SELECT 1 FROM timers WHERE subject_id = $1', [published.id]);
    expect(timers).toEqual([]);
  });
});
