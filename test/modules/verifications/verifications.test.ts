// Seller verification: create, list, retrieve, approve, reject; seller.verification kept in step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const start = (sellerId: string, body: unknown = {}) => ctx.request(`/v1/sellers/${sellerId}/verifications`, { body });

describe('POST /v1/sellers/{id}/verifications', () => {
  it('creates a pending verification, makes the seller pending, and emits verification.created and seller.verification_updated', async () => {
    const seller = await createSeller(ctx);
    const res = await start(seller.id, { notes: 'Checked by phone.', metadata: { case: '42' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'verification',
      id: expect.stringMatching(/^ver_/),
      seller: seller.id,
      status: 'pending',
      reason: null,
      notes: 'Checked by phone.',
      metadata: { case: '42' },
      created_at: expect.any(String),
      decided_at: null,
    });
    const after = (await ctx.request(`/v1/sellers/${seller.id}`)).body;
    expect(after.verification).toEqual({ status: 'pending', updated_at: res.body.created_at });
    expect((await storedEvents(ctx, res.body.id)).map((e) => e.type)).toEqual(['verification.created']);
    const sellerEvents = await storedEvents(ctx, seller.id);
    expect(sellerEvents.map((e) => e.type)).toEqual(['seller.created', 'seller.verification_updated']);
    expect(sellerEvents[1]!.data.object.verification.status).toBe('pending');
    expect(sellerEvents[1]!.data.previous_attributes.verification).toEqual({ status: 'unverified', updated_at: null });
  });

  it('refuses a second verification while one is pending, and one for a verified seller, with 409 invalid_state', async () => {
    const seller = await createSeller(ctx);
    const first = await start(seller.id);
    const again = await start(seller.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
    expect(again.body.error.message).toContain('pending');
    await ctx.request(`/v1/verifications/${first.body.id}/approve`, { method: 'POST' });
    const verified = await start(seller.id);
    expect(verified.status).toBe(409);
    expect(verified.body.error.message).toContain('verified');
  });

  it('lets a rejected seller try again', async () => {
    const seller = await createSeller(ctx);
    const first = await start(seller.id);
    await ctx.request(`/v1/verifications/${first.body.id}/reject`, { body: { reason: 'Blurry document.' } });
    const retry = await start(seller.id);
    expect(retry.status).toBe(201);
  });

  it('answers 404 for an unknown seller and 409 for an erased one', async () => {
    expect((await start('sel_01jd00000000000000000000zz')).status).toBe(404);
    const seller = await createSeller(ctx);
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    const erased = await start(seller.id);
    expect(erased.status).toBe(409);
    expect(erased.body.error.code).toBe('invalid_state');
  });

  it('bounds notes at 2000 characters (400 param notes)', async () => {
    const seller = await createSeller(ctx);
    const over = await start(seller.id, { notes: 'n'.repeat(2001) });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'invalid_request', param: 'notes' });
    expect((await start(seller.id, { notes: 'n'.repeat(2000) })).status).toBe(201);
  });
});

describe('POST /v1/verifications/{id}/approve and /reject', () => {
  it('approve: pending → verified, the seller verified, verification.updated with previous_attributes', async () => {
    const seller = await createSeller(ctx);
    const created = (await start(seller.id)).body;
    const res = await ctx.request(`/v1/verifications/${created.id}/approve`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'verified', reason: null, decided_at: expect.any(String) });
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.verification).toEqual({ status: 'verified', updated_at: res.body.decided_at });
    const events = await storedEvents(ctx, created.id);
    expect(events.map((e) => e.type)).toEqual(['verification.created', 'verification.updated']);
    expect(events[1]!.data.previous_attributes).toEqual({ status: 'pending', decided_at: null });
    const sellerEvents = await storedEvents(ctx, seller.id);
    expect(sellerEvents.at(-1)!.type).toBe('seller.verification_updated');
    expect(sellerEvents.at(-1)!.data.object.verification.status).toBe('verified');
  });

  it('reject: pending → rejected with the reason, the seller rejected', async () => {
    const seller = await createSeller(ctx);
    const created = (await start(seller.id)).body;
    const res = await ctx.request(`/v1/verifications/${created.id}/reject`, { body: { reason: 'Name mismatch.' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', reason: 'Name mismatch.' });
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.verification.status).toBe('rejected');
    const events = await storedEvents(ctx, created.id);
    expect(events[1]!.data.previous_attributes).toEqual({ status: 'pending', reason: null, decided_at: null });
  });

  it('only decides a pending verification: otherwise 409 invalid_state naming the state', async () => {
    const seller = await createSeller(ctx);
    const created = (await start(seller.id)).body;
    await ctx.request(`/v1/verifications/${created.id}/approve`, { method: 'POST' });
    const approveAgain = await ctx.request(`/v1/verifications/${created.id}/approve`, { method: 'POST' });
    expect(approveAgain.status).toBe(409);
    expect(approveAgain.body.error).toMatchObject({ code: 'invalid_state' });
    expect(approveAgain.body.error.message).toContain('verified');
    const reject = await ctx.request(`/v1/verifications/${created.id}/reject`, { body: { reason: 'x' } });
    expect(reject.status).toBe(409);
  });

  it('refuses to decide the verification of an erased seller with 409 invalid_state', async () => {
    const seller = await createSeller(ctx);
    const created = (await start(seller.id)).body;
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    const res = await ctx.request(`/v1/verifications/${created.id}/approve`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('invalid_state');
  });

  it('reject needs a reason of 1 to 500 characters, not blank; unknown ids answer 404', async () => {
    const seller = await createSeller(ctx);
    const created = (await start(seller.id)).body;
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: '\t\n' }, { reason: 'r'.repeat(501) }]) {
      const res = await ctx.request(`/v1/verifications/${created.id}/reject`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'reason' });
    }
    expect((await ctx.request(`/v1/verifications/${created.id}`)).body).toMatchObject({ status: 'pending', reason: null });
    expect((await ctx.request(`/v1/verifications/${created.id}/reject`, { body: { reason: 'r'.repeat(500) } })).status).toBe(200);
    expect((await ctx.request('/v1/verifications/ver_01jd00000000000000000000zz/approve', { method: 'POST' })).status).toBe(404);
    expect((await ctx.request('/v1/verifications/ver_01jd00000000000000000000zz/reject', { body: { reason: 'x' } })).status).toBe(404);
  });
});

describe('GET /v1/verifications', () => {
  it('retrieves one, and lists newest first filtered by seller and status', async () => {
    const seller = await createSeller(ctx);
    const other = await createSeller(ctx);
    const first = (await start(seller.id)).body;
    await ctx.request(`/v1/verifications/${first.id}/reject`, { body: { reason: 'No.' } });
    const second = (await start(seller.id)).body;
    const otherOne = (await start(other.id)).body;

    const one = await ctx.request(`/v1/verifications/${second.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(second);

    const bySeller = await ctx.request(`/v1/verifications?seller=${seller.id}`);
    expect(bySeller.body.data.map((v: { id: string }) => v.id)).toEqual([second.id, first.id]);
    const rejected = await ctx.request(`/v1/verifications?seller=${seller.id}&status=rejected`);
    expect(rejected.body.data.map((v: { id: string }) => v.id)).toEqual([first.id]);
    const paged = await ctx.request('/v1/verifications?limit=1');
    expect(paged.body).toMatchObject({ has_more: true, next_cursor: otherOne.id });
    const next = await ctx.request(`/v1/verifications?limit=1&starting_after=${otherOne.id}`);
    expect(next.body.data[0].id).toBe(second.id);

    expect((await ctx.request('/v1/verifications?status=done')).body.error).toMatchObject({ param: 'status' });
    expect((await ctx.request('/v1/verifications/ver_01jd00000000000000000000zz')).status).toBe(404);
    expect((await ctx.request(`/v1/verifications/${second.id}`, { key: ctx.keys.live.secret_key })).status).toBe(404);
    expect((await ctx.request('/v1/verifications', { key: ctx.keys.test.publishable_key })).body.error.code).toBe('secret_key_required');
  });

  it('takes a page size of 1 to 100: limit=0 and limit=101 answer 400 param limit', async () => {
    await start((await createSeller(ctx)).id);
    for (const limit of [1, 100]) {
      const res = await ctx.request(`/v1/verifications?limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(200);
      expect(res.body.object).toBe('list');
    }
    for (const limit of ['0', '101', '-1', 'ten']) {
      const res = await ctx.request(`/v1/verifications?limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    }
  });
});
