// The API reference people read (GET /docs, from the swagger-ui-dist files the service ships),
// GET / for browsers and for API clients, the error codes of every operation as an enum with an
// example, and `servers` from PUBLIC_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODES_OUTSIDE_OPERATIONS } from '../../src/http/openapi.js';
import { startTestApp, type TestContext } from '../helpers/harness.js';

const PUBLIC_URL = 'https://api.market.example';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ env: { PUBLIC_URL } });
});
afterAll(() => ctx.close());

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('GET /docs', () => {
  it('answers an HTML page whose scripts and styles all load from this service, with their content types', async () => {
    const page = await ctx.request('/docs', { key: null, headers: BROWSER });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    // Every asset is on this service: no CDN, no other origin.
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) expect(ref, ref).toMatch(/^\/docs\//);
    const types: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.png': 'image/png' };
    for (const ref of refs) {
      const asset = await ctx.request(ref, { key: null });
      expect(asset.status, ref).toBe(200);
      expect(asset.headers['content-type'], ref).toBe(types[/\.[a-z]+$/.exec(ref)![0]]);
      expect(asset.text.length, ref).toBeGreaterThan(100);
    }
    const start = await ctx.request('/docs/start.js', { key: null });
    expect(start.text).toContain("url: '/v1/openapi.json'");
    expect(start.text).toContain('validatorUrl: null');
  });

  it('serves no file beyond its own list', async () => {
    const page = await ctx.request('/docs', { key: null });
    const base = /href="(\/docs\/assets\/[^/]+)\/swagger-ui\.css"/.exec(page.text)![1]!;
    for (const name of ['package.json', 'index.html', '..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await ctx.request(`${base}/${name}`, { key: null });
      expect(res.status, name).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    }
  });
});

describe('GET /', () => {
  it('sends a browser to the dashboard', async () => {
    const res = await ctx.request('/', { key: null, headers: BROWSER });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    expect(res.headers.vary).toContain('Accept');
  });

  it('answers an API client the 404 envelope of any unknown URL', async () => {
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }] as Array<Record<string, string>>) {
      const res = await ctx.request('/', { key: null, headers });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', request_id: expect.any(String) });
    }
  });
});

type ErrorContent = {
  schema: { allOf: [{ $ref: string }, { properties: { error: { properties: { code: { type: string; enum: string[] } } } } }] };
  example: { error: { code: string; message: string; request_id: string } };
};
type Operation = { security?: Array<Record<string, string[]>>; responses: Record<string, { content?: { 'application/json': ErrorContent } }> };

const codesOf = (content: ErrorContent) => content.schema.allOf[1].properties.error.properties.code.enum;

describe('the OpenAPI document', () => {
  it('names its server from PUBLIC_URL', async () => {
    const doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
    expect(doc.servers).toEqual([{ url: PUBLIC_URL }]);
  });

  it("gives every operation's 4XX and 5XX an enum of its codes, with an example of one of them", async () => {
    const { paths } = (await ctx.request('/v1/openapi.json', { key: null })).body as { paths: Record<string, Record<string, Operation>> };
    // Every code with its status: the kernel's and the modules' (src/app/wiring.ts).
    const statuses: Record<string, number> = ctx.services.wiring.errorStatuses;
    const used = new Set<string>();
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        for (const [status, min, max] of [['4XX', 400, 499], ['5XX', 500, 599]] as const) {
          const content = operation.responses[status]?.content?.['application/json'];
          expect(content, `${name} ${status}`).toBeDefined();
          expect(content!.schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
          const codes = codesOf(content!);
          expect(codes.length, name).toBeGreaterThan(0);
          for (const code of codes) {
            expect(Object.keys(statuses), `${name}: ${code}`).toContain(code);
            const httpStatus = statuses[code]!;
            expect(httpStatus >= min && httpStatus <= max, `${name} ${status}: ${code} is ${httpStatus}`).toBe(true);
            used.add(code);
          }
          expect(codes, name).toContain(content!.example.error.code);
          expect(content!.example.error.message.length).toBeGreaterThan(0);
        }
        const clientCodes = codesOf(operation.responses['4XX']!.content!['application/json']);
        const serverCodes = codesOf(operation.responses['5XX']!.content!['application/json']);
        // The codes any operation of its kind can answer.
        expect(clientCodes, name).toContain('invalid_request');
        expect(serverCodes, name).toContain('internal_error');
        if (path.startsWith('/v1/')) {
          for (const code of ['api_key_missing', 'api_key_invalid', 'rate_limited']) expect(clientCodes, `${name}: ${code}`).toContain(code);
          if (method === 'post') expect(clientCodes, name).toEqual(expect.arrayContaining(['idempotency_key_reused', 'idempotency_key_in_use']));
          if (method !== 'get') expect(clientCodes, name).toContain('marketplace_read_only');
        } else if ((operation.security ?? []).length > 0) {
          expect(clientCodes, name).toContain('authentication_required');
        }
        if (path.includes('{')) expect(clientCodes, name).toContain('resource_missing');
        if (method !== 'get') expect(clientCodes, name).toEqual(expect.arrayContaining(['request_too_large', 'unsupported_media_type']));
      }
    }
    // Every code of the table is answered by some operation, but those answered outside every
    // operation (before routing, at the upload address), each with its reason.
    const outside = Object.keys(CODES_OUTSIDE_OPERATIONS);
    expect(Object.keys(statuses).filter((code) => !used.has(code) && !outside.includes(code))).toEqual([]);
    for (const code of outside) expect(used.has(code), code).toBe(false);
  });

  it('keeps a refusal within the enum of its operation (a 404 on a path id, a 401 without a key)', async () => {
    const { paths } = (await ctx.request('/v1/openapi.json', { key: null })).body as { paths: Record<string, Record<string, Operation>> };
    const enumOf = (path: string, method: string) => codesOf(paths[path]![method]!.responses['4XX']!.content!['application/json']);
    const missing = await ctx.request('/v1/orders/ord_missing');
    expect(enumOf('/v1/orders/{id}', 'get')).toContain(missing.body.error.code);
    const unauthenticated = await ctx.request('/v1/sellers', { key: null });
    expect(enumOf('/v1/sellers', 'get')).toContain(unauthenticated.body.error.code);
  });
});
