// Trust and safety under concurrent requests (real concurrency on PostgreSQL; serialized on
// PGlite, where the same outcomes must hold): two resolutions of one target's flags, a direct
// action racing a resolution, and a reporter erased while its flag is being created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const flag = async (body: Record<string, unknown>) => (await ctx.request('/v1/flags', { body })).body;

describe('concurrent moderation', () => {
  it('two resolutions of flags on one listing: one acts and resolves both, the other answers 409; one moderation action', async () => {
    for (let round = 0; round < 5; round++) {
      const listing = await createPublishedListing(ctx);
      const a = await flag({ target_type: 'listing', target: listing.id, reason: 'spam' });
      const b = await flag({ target_type: 'listing', target: listing.id, reason: 'fraud' });
      const answers = await Promise.all([
        ctx.request(`/v1/flags/${a.id}/resolve`, { body: { action: 'remove_listing' } }),
        ctx.request(`/v1/flags/${b.id}/resolve`, { body: { action: 'remove_listing' } }),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      const actions = (await ctx.request(`/v1/moderation_actions?target=${listing.id}`)).body.data;
      expect(actions).toHaveLength(1);
      const flags = (await ctx.request(`/v1/flags?target=${listing.id}`)).body.data;
      expect(flags.map((f: Json) => f.resolution?.moderation_action)).toEqual([actions[0].id, actions[0].id]);
    }
  });

  it('a direct suspension racing a flag resolution on the same seller: exactly one suspends', async () => {
    for (let round = 0; round < 5; round++) {
      const seller = await createSeller(ctx);
      const open = await flag({ target_type: 'seller', target: seller.id, reason: 'fraud' });
      const answers = await Promise.all([
        ctx.request('/v1/moderation_actions', { body: { action: 'suspend_seller', target: seller.id, reason: 'Direct.' } }),
        ctx.request(`/v1/flags/${open.id}/resolve`, { body: { action: 'suspend_seller', note: 'From the flag.' } }),
      ]);
      const winners = answers.filter((res) => res.status < 300);
      expect(winners).toHaveLength(1);
      expect(answers.filter((res) => res.status === 409)).toHaveLength(1);
      const actions = (await ctx.request(`/v1/moderation_actions?target=${seller.id}`)).body.data;
      expect(actions).toHaveLength(1);
      const resolved = (await ctx.request(`/v1/flags/${open.id}`)).body;
      expect(resolved.status).toBe('resolved');
      expect(resolved.resolution.moderation_action).toBe(actions[0].id);
    }
  });

  it('a reporter erased while its flag is created: either the flag is refused or its description is erased', async () => {
    const target = await createSeller(ctx);
    for (let round = 0; round < 5; round++) {
      const reporter = await createBuyer(ctx);
      const text = `Race ${round} zq9`;
      const [created, erased] = await Promise.all([
        ctx.request('/v1/flags', { body: { target_type: 'seller', target: target.id, reporter: reporter.id, reason: 'other', description: text } }),
        ctx.request(`/v1/buyers/${reporter.id}`, { method: 'DELETE' }),
      ]);
      expect(erased.status).toBe(200);
      expect([201, 409]).toContain(created.status);
      const left = await ctx.db.query('SELECT id FROM flags WHERE description = $1', [text]);
      expect(left).toEqual([]);
      const events = await ctx.db.query(`SELECT id FROM events WHERE data::text LIKE $1`, [`%${text}%`]);
      expect(events).toEqual([]);
    }
  });
});
