// The OpenAPI document shows examples for every party operation: sellers, storefront, profile,
// suspension, onboarding links, buyers and verifications.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

type Content = { schema: { properties?: Record<string, unknown>; anyOf?: unknown[] }; example?: unknown };
type Operation = {
  requestBody?: { content: Record<string, Content> };
  responses: Record<string, { content?: Record<string, Content> }>;
};

/** Every operation of the party modules in the document, as "METHOD /path" with its object. */
async function partyOperations(): Promise<Array<[string, Operation]>> {
  const res = await ctx.request('/v1/openapi.json', { key: null });
  expect(res.status).toBe(200);
  const parties = /^\/v1\/(sellers|buyers|verifications)\b/;
  const found: Array<[string, Operation]> = [];
  for (const [path, operations] of Object.entries<Record<string, Operation>>(res.body.paths)) {
    if (!parties.test(path)) continue;
    for (const [method, operation] of Object.entries(operations)) found.push([`${method.toUpperCase()} ${path}`, operation]);
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('covers the seller, buyer, verification and onboarding operations', async () => {
    const names = (await partyOperations()).map(([name]) => name);
    for (const name of [
      'POST /v1/sellers',
      'GET /v1/sellers',
      'GET /v1/sellers/{id}',
      'PATCH /v1/sellers/{id}',
      'DELETE /v1/sellers/{id}',
      'PUT /v1/sellers/{id}/storefront',
      'GET /v1/sellers/{id}/profile',
      'POST /v1/sellers/{id}/suspend',
      'POST /v1/sellers/{id}/unsuspend',
      'POST /v1/sellers/{id}/onboarding_links',
      'POST /v1/sellers/{id}/verifications',
      'POST /v1/buyers',
      'GET /v1/buyers',
      'GET /v1/buyers/{id}',
      'PATCH /v1/buyers/{id}',
      'DELETE /v1/buyers/{id}',
      'GET /v1/verifications',
      'GET /v1/verifications/{id}',
      'POST /v1/verifications/{id}/approve',
      'POST /v1/verifications/{id}/reject',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('shows an example of the successful answer of every operation, with the fields of its schema', async () => {
    const missing: string[] = [];
    for (const [name, operation] of await partyOperations()) {
      const success = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
      expect(success.length, name).toBeGreaterThan(0);
      for (const [status, response] of success) {
        const content = response.content?.['application/json'];
        if (content?.example === undefined) {
          missing.push(`${name} ${status}`);
          continue;
        }
        // The example shows every field of the record, and no other.
        expect(Object.keys(content.example as object).sort(), `${name} ${status}`).toEqual(Object.keys(content.schema.properties ?? {}).sort());
      }
    }
    expect(missing).toEqual([]);
  });

  it('shows an example request body for every operation whose body has fields', async () => {
    const missing: string[] = [];
    for (const [name, operation] of await partyOperations()) {
      const content = operation.requestBody?.content['application/json'];
      // Operations without fields (verification approve) take no body or {}.
      if (!content || content.schema.anyOf || Object.keys(content.schema.properties ?? {}).length === 0) continue;
      if (content.example === undefined) {
        missing.push(name);
        continue;
      }
      // Every field of the example is a field of the body.
      const fields = Object.keys(content.schema.properties ?? {});
      for (const key of Object.keys(content.example as object)) expect(fields, `${name}: ${key}`).toContain(key);
    }
    expect(missing).toEqual([]);
  });
});
