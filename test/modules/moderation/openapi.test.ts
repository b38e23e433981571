// The OpenAPI document shows the trust and safety operations with examples: every successful
// answer's example has exactly the fields of its schema, every body example only fields of its body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

type Content = { schema: { properties?: Record<string, unknown> }; example?: unknown };
type Operation = { requestBody?: { content: Record<string, Content> }; responses: Record<string, { content?: Record<string, Content> }> };

async function operations(): Promise<Array<[string, Operation]>> {
  const res = await ctx.request('/v1/openapi.json', { key: null });
  expect(res.status).toBe(200);
  const found: Array<[string, Operation]> = [];
  for (const [path, byMethod] of Object.entries<Record<string, Operation>>(res.body.paths)) {
    if (!/^\/v1\/(flags|moderation_actions)\b/.test(path)) continue;
    for (const [method, operation] of Object.entries(byMethod)) found.push([`${method.toUpperCase()} ${path}`, operation]);
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('has every flag and moderation action operation, each answer and body with a fitting example', async () => {
    const found = await operations();
    expect(found.map(([name]) => name).sort()).toEqual(
      [
        'POST /v1/flags',
        'GET /v1/flags',
        'GET /v1/flags/{id}',
        'POST /v1/flags/{id}/resolve',
        'POST /v1/moderation_actions',
        'GET /v1/moderation_actions',
        'GET /v1/moderation_actions/{id}',
      ].sort(),
    );
    for (const [name, operation] of found) {
      for (const [status, response] of Object.entries(operation.responses).filter(([code]) => /^2\d\d$/.test(code))) {
        const content = response.content?.['application/json'];
        expect(content?.example, `${name} ${status}`).toBeDefined();
        expect(Object.keys(content!.example as object).sort(), `${name} ${status}`).toEqual(Object.keys(content!.schema.properties ?? {}).sort());
      }
      const body = operation.requestBody?.content['application/json'];
      if (!body) continue;
      expect(body.example, name).toBeDefined();
      for (const key of Object.keys(body.example as object)) expect(Object.keys(body.schema.properties ?? {}), `${name}: ${key}`).toContain(key);
    }
  });
});
