import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('GET /v1/marketplace', () => {
  it('answers the marketplace of the key', async () => {
    const res = await ctx.request('/v1/marketplace');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'marketplace', id: ctx.marketplaceId, currency: 'USD', livemode: false, read_only: null });
    expect(res.headers['request-id']).toMatch(/^req_/);
  });
});
