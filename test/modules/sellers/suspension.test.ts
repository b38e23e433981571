// Suspension: active ⇄ suspended, each move a moderation action.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, storedEvents, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

async function moderationEvents(target: string) {
  const rows = await ctx.db.query<{ data: Json }>(
    `SELECT data FROM events WHERE type = 'moderation_action.created' AND data->'object'->>'target' = $1 ORDER BY id`,
    [target],
  );
  return rows.map((row) => row.data.object);
}

describe('POST /v1/sellers/{id}/suspend and /unsuspend', () => {
  it('suspends with a reason, emits seller.suspended and records a moderation action', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body: { reason: 'Counterfeit goods.' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'suspended', suspended_reason: 'Counterfeit goods.' });
    const events = await storedEvents(ctx, seller.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created', 'seller.suspended']);
    expect(events[1]!.data.object).toEqual(res.body);
    expect(await moderationEvents(seller.id)).toEqual([
      {
        object: 'moderation_action',
        id: expect.stringMatching(/^mda_/),
        action: 'suspend_seller',
        target_type: 'seller',
        target: seller.id,
        reason: 'Counterfeit goods.',
        flag: null,
        created_at: expect.any(String),
      },
    ]);
    const rows = await ctx.db.query('SELECT action, target_id FROM moderation_actions WHERE target_id = $1', [seller.id]);
    expect(rows).toEqual([{ action: 'suspend_seller', target_id: seller.id }]);
  });

  it('unsuspends, clearing the reason, emits seller.unsuspended and records unsuspend_seller; the body is optional', async () => {
    const seller = await createSeller(ctx);
    await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body: { reason: 'Spam.' } });
    const res = await ctx.request(`/v1/sellers/${seller.id}/unsuspend`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', suspended_reason: null });
    expect((await storedEvents(ctx, seller.id)).map((e) => e.type)).toEqual(['seller.created', 'seller.suspended', 'seller.unsuspended']);
    const actions = await moderationEvents(seller.id);
    expect(actions.map((a) => [a.action, a.reason])).toEqual([
      ['suspend_seller', 'Spam.'],
      ['unsuspend_seller', null],
    ]);
    await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body: { reason: 'Again.' } });
    const withReason = await ctx.request(`/v1/sellers/${seller.id}/unsuspend`, { body: { reason: 'Appeal accepted.' } });
    expect(withReason.status).toBe(200);
    expect((await moderationEvents(seller.id)).at(-1)).toMatchObject({ action: 'unsuspend_seller', reason: 'Appeal accepted.' });
  });

  it('refuses to suspend a suspended seller and to unsuspend an active one with 409 invalid_state naming the state', async () => {
    const seller = await createSeller(ctx);
    const unsuspend = await ctx.request(`/v1/sellers/${seller.id}/unsuspend`, { body: {} });
    expect(unsuspend.status).toBe(409);
    expect(unsuspend.body.error.code).toBe('invalid_state');
    expect(unsuspend.body.error.message).toContain('active');
    await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body: { reason: 'x' } });
    const again = await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body: { reason: 'y' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
    expect(again.body.error.message).toContain('suspended');
  });

  it('needs a reason to suspend (400 param reason) and answers 404 for an unknown seller', async () => {
    const seller = await createSeller(ctx);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: '\t\n' }, { reason: 7 }]) {
      const res = await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'reason' });
    }
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body).toMatchObject({ status: 'active', suspended_reason: null });
    const missing = await ctx.request('/v1/sellers/sel_01jd00000000000000000000zz/suspend', { body: { reason: 'x' } });
    expect(missing.status).toBe(404);
    const missingUnsuspend = await ctx.request('/v1/sellers/sel_01jd00000000000000000000zz/unsuspend', { method: 'POST' });
    expect(missingUnsuspend.status).toBe(404);
  });

  it('refuses a blank unsuspend reason (400 param reason); the seller stays suspended', async () => {
    const seller = await createSeller(ctx);
    await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body: { reason: 'Spam.' } });
    for (const body of [{ reason: '' }, { reason: '   ' }, { reason: '\t\n' }]) {
      const res = await ctx.request(`/v1/sellers/${seller.id}/unsuspend`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'reason' });
    }
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body).toMatchObject({ status: 'suspended', suspended_reason: 'Spam.' });
  });
});
