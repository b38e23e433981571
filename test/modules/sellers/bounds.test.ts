// Every bound of the party operations, at the limit and one past it, with the field as param
//.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, unique } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const text = (n: number) => 'x'.repeat(n);
const email = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`;
const metadataKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

interface Bound {
  field: string;
  param: string;
  atLimit: Record<string, unknown>;
  pastLimit: Record<string, unknown>;
}

const partyBounds: Bound[] = [
  { field: 'name', param: 'name', atLimit: { name: text(200) }, pastLimit: { name: text(201) } },
  {
    field: 'external_id',
    param: 'external_id',
    // external ids are unique: each use at the limit gets its own.
    get atLimit() {
      return { external_id: unique('ext').padEnd(200, 'x') };
    },
    pastLimit: { external_id: text(201) },
  },
  { field: 'email', param: 'email', atLimit: { email: email(254) }, pastLimit: { email: email(255) } },
  { field: 'metadata keys', param: 'metadata', atLimit: { metadata: metadataKeys(50) }, pastLimit: { metadata: metadataKeys(51) } },
  { field: 'metadata key length', param: 'metadata', atLimit: { metadata: { [text(40)]: 'v' } }, pastLimit: { metadata: { [text(41)]: 'v' } } },
  { field: 'metadata value', param: 'metadata.k', atLimit: { metadata: { k: text(500) } }, pastLimit: { metadata: { k: text(501) } } },
];

type Target = { name: string; method: 'POST' | 'PATCH' | 'PUT'; url: () => Promise<string>; base?: Record<string, unknown> };

const partyTargets: Target[] = [
  { name: 'POST /v1/sellers', method: 'POST', url: async () => '/v1/sellers' },
  { name: 'PATCH /v1/sellers/{id}', method: 'PATCH', url: async () => `/v1/sellers/${(await createSeller(ctx)).id}` },
  { name: 'POST /v1/buyers', method: 'POST', url: async () => '/v1/buyers' },
  {
    name: 'PATCH /v1/buyers/{id}',
    method: 'PATCH',
    url: async () => `/v1/buyers/${(await ctx.request('/v1/buyers', { body: {} })).body.id}`,
  },
];

async function expectBound(target: Target, bound: Bound) {
  const at = await ctx.request(await target.url(), { method: target.method, body: { ...target.base, ...bound.atLimit } });
  expect(at.status, `${target.name} ${bound.field} at the limit: ${at.text.slice(0, 200)}`).toBeLessThan(300);
  const past = await ctx.request(await target.url(), { method: target.method, body: { ...target.base, ...bound.pastLimit } });
  expect(past.status, `${target.name} ${bound.field} past the limit`).toBe(400);
  expect(past.body.error).toMatchObject({ code: 'invalid_request', param: bound.param });
}

describe('party body bounds', () => {
  for (const target of partyTargets) {
    for (const bound of partyBounds) {
      it(`${target.name}: ${bound.field}`, () => expectBound(target, bound));
    }
  }
});

describe('party body blank text', () => {
  // name and external_id of only whitespace are refused like an empty string, on create and update.
  for (const target of partyTargets) {
    for (const field of ['name', 'external_id']) {
      it(`${target.name}: ${field} of only whitespace answers 400 param ${field}`, async () => {
        for (const blank of ['   ', '\t', ' \n ']) {
          const res = await ctx.request(await target.url(), { method: target.method, body: { [field]: blank } });
          expect(res.status, JSON.stringify(blank)).toBe(400);
          expect(res.body.error).toMatchObject({ code: 'invalid_request', param: field });
        }
        const padded = field === 'name' ? ' Ada ' : ` ${unique('padded')} `;
        const ok = await ctx.request(await target.url(), { method: target.method, body: { [field]: padded } });
        expect(ok.status, ok.text.slice(0, 200)).toBeLessThan(300);
        expect(ok.body[field]).toBe(padded);
      });
    }
  }
});

describe('storefront, suspension and verification bounds', () => {
  const storefront: Target = {
    name: 'PUT /v1/sellers/{id}/storefront',
    method: 'PUT',
    url: async () => `/v1/sellers/${(await createSeller(ctx)).id}/storefront`,
    base: { name: 'Shop' },
  };
  const storefrontBounds: Bound[] = [
    { field: 'name', param: 'name', atLimit: { name: text(120) }, pastLimit: { name: text(121) } },
    { field: 'description', param: 'description', atLimit: { description: text(2000) }, pastLimit: { description: text(2001) } },
    { field: 'slug', param: 'slug', atLimit: { slug: 's'.repeat(60) + '' }, pastLimit: { slug: 's'.repeat(61) } },
    ...partyBounds.filter((b) => b.field.startsWith('metadata')),
  ];
  for (const bound of storefrontBounds) {
    it(`${storefront.name}: ${bound.field}`, async () => {
      // slugs are unique: the at-limit case runs once per fresh seller with its own slug.
      await expectBound(storefront, bound);
      if (bound.field === 'slug') await ctx.db.query('DELETE FROM storefronts WHERE slug = $1', ['s'.repeat(60)]);
    });
  }

  it('POST /v1/sellers/{id}/suspend: reason', () =>
    expectBound(
      { name: 'suspend', method: 'POST', url: async () => `/v1/sellers/${(await createSeller(ctx)).id}/suspend` },
      { field: 'reason', param: 'reason', atLimit: { reason: text(500) }, pastLimit: { reason: text(501) } },
    ));

  it('POST /v1/sellers/{id}/unsuspend: reason', async () => {
    const suspended = async () => {
      const seller = await createSeller(ctx);
      await ctx.request(`/v1/sellers/${seller.id}/suspend`, { body: { reason: 'x' } });
      return `/v1/sellers/${seller.id}/unsuspend`;
    };
    await expectBound(
      { name: 'unsuspend', method: 'POST', url: suspended },
      { field: 'reason', param: 'reason', atLimit: { reason: text(500) }, pastLimit: { reason: text(501) } },
    );
  });

  for (const bound of [
    { field: 'notes', param: 'notes', atLimit: { notes: text(2000) }, pastLimit: { notes: text(2001) } },
    ...partyBounds.filter((b) => b.field.startsWith('metadata')),
  ]) {
    it(`POST /v1/sellers/{id}/verifications: ${bound.field}`, () =>
      expectBound({ name: 'verification', method: 'POST', url: async () => `/v1/sellers/${(await createSeller(ctx)).id}/verifications` }, bound));
  }
});
