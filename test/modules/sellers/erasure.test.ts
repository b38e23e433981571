// Erasure: personal data leaves the records and every stored event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createSeller, storedEvents, unique } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

/** Every stored event of this test marketplace and mode, as text, for searching. */
async function allEventText(): Promise<string> {
  const rows = await ctx.db.query<{ data: unknown }>(`SELECT data FROM events WHERE marketplace_id = $1 AND mode = 'test'`, [ctx.marketplaceId]);
  return JSON.stringify(rows);
}

describe('DELETE /v1/sellers/{id}', () => {
  it('erases the record, its storefront, verification notes and every stored event payload, and removes its listings', async () => {
    const personal = {
      external_id: unique('erase-me'),
      name: 'Personal Name Z~q',
      email: 'personal.zq@example.com',
      metadata: { phone: '+351-PRIVATE-Z~q' },
    };
    const seller = await createSeller(ctx, personal);
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { name: 'Renamed Z~q', email: 'second.zq@example.com' } });
    const slug = unique('private-slug-zq');
    await ctx.request(`/v1/sellers/${seller.id}/storefront`, {
      method: 'PUT',
      body: { name: 'Storefront Z~q', slug, description: 'About Personal Name Z~q', metadata: { owner: 'Z~q' } },
    });
    const verification = (await ctx.request(`/v1/sellers/${seller.id}/verifications`, { body: { notes: 'Passport Z~q-123', metadata: { doc: 'Z~q' } } })).body;
    await ctx.request(`/v1/verifications/${verification.id}/reject`, { body: { reason: 'Passport Z~q-123 expired' } });
    await ctx.request(`/v1/sellers/${seller.id}/onboarding_links`, {
      body: { return_url: 'https://platform.example/done?who=Z~q', refresh_url: 'https://platform.example/retry' },
    });
    expect(await allEventText()).toContain('Z~q');

    const res = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'seller',
      id: seller.id,
      external_id: null,
      name: null,
      email: null,
      metadata: {},
      storefront: null,
      erased_at: expect.any(String),
    });

    // Nothing personal is left in any stored event (data.object and previous_attributes alike).
    expect(await allEventText()).not.toContain('Z~q');
    const events = await storedEvents(ctx, seller.id);
    expect(events.at(-1)!.type).toBe('seller.erased');
    expect(events.at(-1)!.data.object).toEqual(res.body);
    const updated = events.find((e) => e.type === 'seller.updated' && e.data.previous_attributes?.name !== undefined)!;
    expect(updated.data.previous_attributes).toEqual({ name: null, email: null });
    expect(updated.data.object).toMatchObject({ name: null, email: null, external_id: null, metadata: {} });

    // Read back through the API too.
    const listed = await ctx.request('/v1/events?limit=100');
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain('Z~q');

    // The rows: storefront gone, verification text cleared, onboarding links gone.
    expect(await ctx.db.query('SELECT id FROM storefronts WHERE seller_id = $1', [seller.id])).toEqual([]);
    expect(await ctx.db.query('SELECT id FROM onboarding_links WHERE seller_id = $1', [seller.id])).toEqual([]);
    const ver = await ctx.request(`/v1/verifications/${verification.id}`);
    expect(ver.body).toMatchObject({ status: 'rejected', notes: null, metadata: {}, reason: null });

    // The slug and external id are free again.
    const successor = await createSeller(ctx, { external_id: personal.external_id });
    expect(successor.external_id).toBe(personal.external_id);
    const reused = await ctx.request(`/v1/sellers/${successor.id}/storefront`, { method: 'PUT', body: { name: 'Next shop', slug } });
    expect(reused.status, reused.text).toBe(200);
    expect(reused.body.slug).toBe(slug);
  });

  it('nulls suspended_reason on the record, in every stored seller event and stored answer; the moderation action keeps its reason', async () => {
    const marker = 'Suspended over complaints about K~s';
    const seller = await createSeller(ctx);
    const suspend = await ctx.request(`/v1/sellers/${seller.id}/suspend`, {
      body: { reason: marker },
      headers: { 'Idempotency-Key': unique('suspend-marker') },
    });
    expect(suspend.body).toMatchObject({ status: 'suspended', suspended_reason: marker });
    // seller.updated events carry the record, and so the reason, too.
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { name: 'Renamed while suspended' } });
    await ctx.request(`/v1/sellers/${seller.id}/storefront`, { method: 'PUT', body: { name: 'Shop while suspended' } });
    const before = await storedEvents(ctx, seller.id);
    expect(before.map((e) => e.type)).toEqual(['seller.created', 'seller.suspended', 'seller.updated', 'seller.updated']);
    expect(JSON.stringify(before)).toContain('K~s');

    const res = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    // The status stays (only the text about the person goes).
    expect(res.body).toMatchObject({ status: 'suspended', suspended_reason: null, erased_at: expect.any(String) });
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body).toEqual(res.body);
    const [row] = await ctx.db.query<{ suspended_reason: string | null }>('SELECT suspended_reason FROM sellers WHERE id = $1', [seller.id]);
    expect(row).toEqual({ suspended_reason: null });

    const events = await storedEvents(ctx, seller.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created', 'seller.suspended', 'seller.updated', 'seller.updated', 'seller.erased']);
    expect(JSON.stringify(events)).not.toContain('K~s');
    for (const event of events.slice(1)) expect(event.data.object.suspended_reason, event.type).toBeNull();
    const answers = await ctx.db.query<{ response_body: string | null }>(
      `SELECT response_body FROM idempotency_keys WHERE marketplace_id = $1 AND response_body LIKE $2`,
      [ctx.marketplaceId, `%${seller.id}%`],
    );
    expect(answers).not.toEqual([]);
    expect(JSON.stringify(answers)).not.toContain('K~s');

    // The platform's own audit record is kept, in the table and in its event.
    const actions = await ctx.db.query<{ reason: string | null }>('SELECT reason FROM moderation_actions WHERE target_id = $1', [seller.id]);
    expect(actions).toEqual([{ reason: marker }]);
    const moderation = await ctx.db.query<{ data: { object: { reason: string } } }>(
      `SELECT data FROM events WHERE type = 'moderation_action.created' AND data->'object'->>'target' = $1`,
      [seller.id],
    );
    expect(moderation.map((e) => e.data.object.reason)).toEqual([marker]);
  });

  it('removes the seller\'s listings with removed_reason seller_erased', async () => {
    const seller = await createSeller(ctx);
    const listing = await ctx.request('/v1/listings', {
      body: { seller: seller.id, title: 'Lamp', price: { amount: 1000, currency: 'USD' } },
    });
    expect(listing.status, listing.text).toBe(201);
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    const after = await ctx.request(`/v1/listings/${listing.body.id}`);
    expect(after.body).toMatchObject({ status: 'removed', removed_reason: 'seller_erased' });
  });

  it('is harmless twice: the erased record again, no new event', async () => {
    const seller = await createSeller(ctx);
    const first = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    const count = (await storedEvents(ctx, seller.id)).length;
    const second = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await storedEvents(ctx, seller.id)).length).toBe(count);
  });

  it('refuses to change an erased seller with 409 invalid_state; reading and the profile still work', async () => {
    const seller = await createSeller(ctx);
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    const attempts: Array<[string, 'PATCH' | 'PUT' | 'POST', unknown]> = [
      [`/v1/sellers/${seller.id}`, 'PATCH', { name: 'Back' }],
      [`/v1/sellers/${seller.id}/storefront`, 'PUT', { name: 'Shop' }],
      [`/v1/sellers/${seller.id}/suspend`, 'POST', { reason: 'x' }],
      [`/v1/sellers/${seller.id}/unsuspend`, 'POST', {}],
      [`/v1/sellers/${seller.id}/verifications`, 'POST', {}],
    ];
    for (const [url, method, body] of attempts) {
      const res = await ctx.request(url, { method, body });
      expect(res.status, `${method} ${url}`).toBe(409);
      expect(res.body.error.code).toBe('invalid_state');
      expect(res.body.error.message).toContain('erased');
    }
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).status).toBe(200);
    const profile = await ctx.request(`/v1/sellers/${seller.id}/profile`, { key: ctx.keys.test.publishable_key });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ name: null, storefront: null });
  });

  it('answers 404 for an unknown seller', async () => {
    const res = await ctx.request('/v1/sellers/sel_01jd00000000000000000000zz', { method: 'DELETE' });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /v1/buyers/{id}', () => {
  it('erases the record and every stored event payload; buyer.erased carries the erased record', async () => {
    const buyer = await createBuyer(ctx, { name: 'Buyer Name Q~x', email: 'buyer.qx@example.com', metadata: { addr: 'Street Q~x' } });
    await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'PATCH', body: { name: 'Other Q~x' } });
    expect(await allEventText()).toContain('Q~x');
    const res = await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ external_id: null, name: null, email: null, metadata: {}, erased_at: expect.any(String) });
    expect(await allEventText()).not.toContain('Q~x');
    const events = await storedEvents(ctx, buyer.id);
    expect(events.map((e) => e.type)).toEqual(['buyer.created', 'buyer.updated', 'buyer.erased']);
    expect(events[2]!.data.object).toEqual(res.body);

    const again = await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' });
    expect(again.body).toEqual(res.body);
    expect((await storedEvents(ctx, buyer.id)).length).toBe(3);
    const update = await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'PATCH', body: { name: 'x' } });
    expect(update.status).toBe(409);
    expect(update.body.error.code).toBe('invalid_state');
  });
});

describe('stored answers of idempotent requests', () => {
  /** Every stored idempotent answer of this test marketplace and mode, as text, for searching. */
  async function storedAnswerText(): Promise<string> {
    const rows = await ctx.db.query<{ response_body: string | null }>(
      `SELECT response_body FROM idempotency_keys WHERE marketplace_id = $1 AND mode = 'test'`,
      [ctx.marketplaceId],
    );
    return JSON.stringify(rows);
  }
  const withKey = (url: string, body: unknown) => ctx.request(url, { method: 'POST', body, headers: { 'Idempotency-Key': unique('idem') } });

  it('lose the personal data of an erased seller and its verifications; a replay answers the erased values', async () => {
    const create = { external_id: unique('idem-Wv'), name: 'Idem Name Wv', email: 'idem.wv@example.com', metadata: { phone: 'Wv-555' } };
    const createKey = unique('idem-create');
    const seller = (await ctx.request('/v1/sellers', { method: 'POST', body: create, headers: { 'Idempotency-Key': createKey } })).body;
    const verification = (await withKey(`/v1/sellers/${seller.id}/verifications`, { notes: 'Passport Wv', metadata: { doc: 'Wv' } })).body;
    await withKey(`/v1/verifications/${verification.id}/reject`, { reason: 'Passport Wv expired' });
    await withKey(`/v1/sellers/${seller.id}/suspend`, { reason: 'Policy.' });
    expect(await storedAnswerText()).toContain('Wv');

    expect((await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await storedAnswerText()).not.toContain('Wv');
    const replay = await ctx.request('/v1/sellers', { method: 'POST', body: create, headers: { 'Idempotency-Key': createKey } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ id: seller.id, external_id: null, name: null, email: null, metadata: {} });
  });

  it('lose the personal data of an erased buyer', async () => {
    const buyer = (await withKey('/v1/buyers', { name: 'Idem Buyer Yk', email: 'idem.yk@example.com', metadata: { a: 'Yk' } })).body;
    expect(await storedAnswerText()).toContain('Yk');
    expect((await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await storedAnswerText()).not.toContain('Yk');
  });
});
