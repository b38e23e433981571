// An order's success_url and cancel_url are pages the buyer is sent to: http and https only. The
// uri format alone would take javascript:, data: or ftp: (issue 21, item 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { orderHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

describe('order redirect URLs', () => {
  it('refuses javascript:, data: and ftp: URLs with 400 naming the field', async () => {
    const p = await h.parties();
    for (const field of ['success_url', 'cancel_url']) {
      for (const url of ['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'ftp://files.example.com/x', 'JAVASCRIPT://%0aalert(1)']) {
        const res = await h.post('/v1/orders', { buyer: p.buyer.id, listing: p.listing.id, [field]: url });
        expect({ status: res.status, code: res.body.error?.code, param: res.body.error?.param }, `${field} ${url}`).toEqual({ status: 400, code: 'invalid_request', param: field });
      }
    }
    expect((await ctx.request(`/v1/orders?buyer=${p.buyer.id}`)).body.data).toEqual([]);
  });

  it('takes http and https URLs, in any case', async () => {
    const p = await h.parties();
    const res = await h.post('/v1/orders', { buyer: p.buyer.id, listing: p.listing.id, success_url: 'HTTPS://shop.example/thanks', cancel_url: 'http://shop.example/cart' });
    expect(res.status, res.text).toBe(201);
  });

  it('the OpenAPI document states the rule', async () => {
    const doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
    const body = doc.paths['/v1/orders'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    for (const field of ['success_url', 'cancel_url']) {
      expect(schema.properties[field].pattern).toBe('^[Hh][Tt][Tt][Pp][Ss]?://');
      expect(schema.properties[field].description).toContain('http:// or https://');
    }
  });
});
