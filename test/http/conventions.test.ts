// HTTP conventions (ids, lists, errors, requests; docs/decisions/foundation.md), driven through the real app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext, type TestResponse } from '../helpers/harness.js';
import { buildApp } from '../../src/http/app.js';
import { fixtureRoutes } from './fixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ routes: fixtureRoutes() });
});
afterAll(() => ctx.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectError(res: TestResponse, status: number, code: string, param?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.body.error.request_id).toMatch(/^req_[0-9a-z]{26}$/);
  expect(res.headers['request-id']).toBe(res.body.error.request_id);
  if (param === undefined) expect(res.body.error).not.toHaveProperty('param');
  else expect(res.body.error.param).toBe(param);
}

const widget = (body: unknown, headers: Record<string, string> = {}) =>
  ctx.request('/v1/_test/widgets', { method: 'POST', body, headers });

describe('Request-Id', () => {
  it('is on a success, a 4xx, an unknown route and a 500, and differs per request', async () => {
    const responses = [
      await ctx.request('/v1/marketplace'),
      await ctx.request('/v1/marketplace', { key: null }),
      await ctx.request('/v1/no_such_thing'),
      await ctx.request('/v1/_test/explode'),
      await ctx.request('/healthz', { key: null }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 500, 200]);
    const ids = responses.map((r) => r.headers['request-id']);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ignores a Request-Id the client sends', async () => {
    const res = await ctx.request('/v1/marketplace', { headers: { 'request-id': 'req_spoofed' } });
    expect(res.headers['request-id']).not.toBe('req_spoofed');
  });
});

describe('unknown routes', () => {
  it('answer 404 resource_missing in the envelope, with or without a key', async () => {
    expectError(await ctx.request('/v1/nothing/here'), 404, 'resource_missing');
    expectError(await ctx.request('/nowhere', { key: null }), 404, 'resource_missing');
    expectError(await ctx.request('/v1/marketplace', { method: 'DELETE' }), 404, 'resource_missing');
  });
});

describe('request bodies', () => {
  it('accepts a valid body and answers with millisecond timestamps', async () => {
    const res = await widget({ name: 'ok', count: 3, price: { amount: 100, currency: 'usd' }, listings: [{ title: 'a' }] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.created_at).toMatch(TIMESTAMP);
    const read = await ctx.request(`/v1/_test/widgets/${res.body.id}`);
    expect(read.body.created_at).toMatch(TIMESTAMP);
    expect((await ctx.request('/v1/marketplace')).body.created_at).toMatch(TIMESTAMP);
  });

  it('are JSON only: another Content-Type answers 415', async () => {
    const res = await ctx.request('/v1/_test/widgets', { method: 'POST', body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(res, 415, 'unsupported_media_type');
    expectError(
      await ctx.request('/v1/_test/widgets', { method: 'POST', body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('accepts application/json with a charset', async () => {
    const res = await widget({ name: 'charset' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(res.status, res.text).toBe(201);
  });

  it('over 1 MiB answer 413 request_too_large', async () => {
    const res = await widget({ name: 'big', metadata: { a: 'x'.repeat(1024 * 1024) } });
    expectError(res, 413, 'request_too_large');
  });

  it('malformed JSON answers 400 invalid_request', async () => {
    expectError(await widget('{"name": "x",'), 400, 'invalid_request');
    expectError(await widget('{name: 1}'), 400, 'invalid_request');
  });

  it('a missing body reads as {}: a required field is then named by its param', async () => {
    const res = await ctx.request('/v1/_test/widgets', { method: 'POST' });
    expectError(res, 400, 'invalid_request', 'name');
  });

  it('an unknown field answers 400 naming it, at any depth', async () => {
    expectError(await widget({ name: 'x', colour: 'red' }), 400, 'invalid_request', 'colour');
    expectError(await widget({ name: 'x', price: { amount: 1, currency: 'USD', tax: 1 } }), 400, 'invalid_request', 'price.tax');
  });

  it('does not coerce types: "1" is not an integer, 1 is not a string', async () => {
    expectError(await widget({ name: 'x', count: '1' }), 400, 'invalid_request', 'count');
    expectError(await widget({ name: 1 }), 400, 'invalid_request', 'name');
    expectError(await widget({ name: 'x', count: 1.5 }), 400, 'invalid_request', 'count');
    expectError(await widget({ name: 'x', count: true }), 400, 'invalid_request', 'count');
  });

  it('names nested and array members as price.currency and listings[3].title', async () => {
    expectError(await widget({ name: 'x', price: { amount: 1, currency: 'DOLLARS' } }), 400, 'invalid_request', 'price.currency');
    const listings = [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 7 }];
    expectError(await widget({ name: 'x', listings }), 400, 'invalid_request', 'listings[3].title');
    const priced = [{ title: 'a' }, { title: 'b', price: { amount: 1 } }];
    expectError(await widget({ name: 'x', listings: priced }), 400, 'invalid_request', 'listings[1].price.currency');
  });

  it('a missing required field answers 400 naming it', async () => {
    expectError(await widget({}), 400, 'invalid_request', 'name');
    expectError(await widget({ name: 'x', price: { currency: 'USD' } }), 400, 'invalid_request', 'price.amount');
  });

  it('out-of-range numbers answer 400, never 500', async () => {
    expectError(await widget({ name: 'x', count: 1e20 }), 400, 'invalid_request', 'count');
    expectError(await widget({ name: 'x', count: 0 }), 400, 'invalid_request', 'count');
    expectError(await widget({ name: 'x', price: { amount: 100_000_000_000, currency: 'USD' } }), 400, 'invalid_request', 'price.amount');
    expectError(await widget({ name: 'x', price: { amount: -1, currency: 'USD' } }), 400, 'invalid_request', 'price.amount');
    // 1e400 parses to Infinity; a 30-digit number has already lost its value when parsed.
    expectError(await widget('{"name":"x","count":1e400}'), 400, 'invalid_request', 'count');
    expectError(await widget('{"name":"x","listings":[{"title":"a","price":{"amount":123456789012345678901234567890,"currency":"USD"}}]}'), 400, 'invalid_request', 'listings[0].price.amount');
  });

  it('too long strings and too many items answer 400 naming the field', async () => {
    expectError(await widget({ name: 'x'.repeat(51) }), 400, 'invalid_request', 'name');
    const many = Array.from({ length: 101 }, () => ({ title: 't' }));
    expectError(await widget({ name: 'x', listings: many }), 400, 'invalid_request', 'listings');
    expectError(await widget({ name: 'x', metadata: { k: 'v'.repeat(501) } }), 400, 'invalid_request', 'metadata.k');
  });

  it('NUL characters and lone surrogates answer 400 naming the field', async () => {
    expectError(await widget('{"name":"a\\u0000b"}'), 400, 'invalid_request', 'name');
    expectError(await widget('{"name":"\\ud800"}'), 400, 'invalid_request', 'name');
    expectError(await widget('{"name":"ok","listings":[{"title":"x"},{"title":"\\udfff tail"}]}'), 400, 'invalid_request', 'listings[1].title');
    // A bad key is named by the object that holds it: the key itself cannot be echoed as text.
    expectError(await widget('{"name":"ok","metadata":{"k\\u0000":"v"}}'), 400, 'invalid_request', 'metadata');
    // A well-formed pair is fine.
    expect((await widget('{"name":"\\ud83d\\ude00"}')).status).toBe(201);
  });

  it('nesting deeper than 64 levels answers 400, however deep (a recursive check would overflow: 500)', async () => {
    const nested = (depth: number) => `{"name":"n","metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    for (const depth of [64, 5000, 200_000]) expectError(await widget(nested(depth)), 400, 'invalid_request');
    expect((await widget(nested(10))).body.error.param).toBe('metadata');
    expect((await widget(nested(200_000))).body.error.message).toMatch(/deeper than 64 levels/);
  });

  it('refuses __proto__ and constructor.prototype keys', async () => {
    const proto = await widget('{"name":"x","__proto__":{"admin":true}}');
    expectError(proto, 400, 'invalid_request');
    expect(proto.body.error.message).toMatch(/__proto__/);
    expectError(await widget('{"name":"x","metadata":{"__proto__":"v"}}'), 400, 'invalid_request');
    expectError(await widget('{"name":"x","constructor":{"prototype":{"admin":true}}}'), 400, 'invalid_request');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('unexpected failures', () => {
  it('answer 500 internal_error with no stack, SQL or message of the cause', async () => {
    for (const res of [await ctx.request('/v1/_test/explode', { method: 'POST', body: {} }), await ctx.request('/v1/_test/explode')]) {
      expectError(res, 500, 'internal_error');
      expect(res.text).not.toMatch(/no_such_table|secret|hunter2|\/srv\/|\.ts:|at |stack|relation|SELECT/i);
    }
  });
});

describe('query parameters', () => {
  it('are parsed from text and bounded', async () => {
    expect((await ctx.request('/v1/_test/widgets?limit=5')).status).toBe(200);
    expectError(await ctx.request('/v1/_test/widgets?limit=abc'), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/v1/_test/widgets?limit=0'), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/v1/_test/widgets?limit=101'), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/v1/_test/widgets?limit=1.5'), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/v1/_test/widgets?starting_after=nope'), 400, 'invalid_request', 'starting_after');
    expectError(await ctx.request('/v1/_test/widgets?colour=red'), 400, 'invalid_request', 'colour');
  });

  it('an operation that takes none refuses any, by name, with either key', async () => {
    expectError(await ctx.request('/v1/marketplace?expand=settings'), 400, 'invalid_request', 'expand');
    expectError(await ctx.request('/v1/events/evt_01?colour=red'), 400, 'invalid_request', 'colour');
    expectError(await ctx.request('/v1/test_helpers/clock?x=1'), 400, 'invalid_request', 'x');
    expectError(
      await ctx.request('/v1/listings/lst_01?colour=red', { key: ctx.keys.test.publishable_key }),
      400,
      'invalid_request',
      'colour',
    );
    const login = await ctx.request('/manage/v1/login', { key: null, body: ctx.owner });
    expectError(await ctx.request('/manage/v1/workspaces?x=1', { key: login.body.token }), 400, 'invalid_request', 'x');
    expectError(await ctx.request('/manage/v1/logout', { key: login.body.token, body: { all: true } }), 400, 'invalid_request', 'all');
  });
});

describe('operations without body fields', () => {
  it('accept no body, {} or null, and refuse any field by name', async () => {
    const seller = await ctx.request('/v1/sellers', { body: {} });
    const verification = await ctx.request(`/v1/sellers/${seller.body.id}/verifications`, { body: {} });
    expect(verification.status).toBe(201);
    const approve = `/v1/verifications/${verification.body.id}/approve`;
    expectError(await ctx.request(approve, { body: { note: 'ok' } }), 400, 'invalid_request', 'note');
    expectError(await ctx.request(approve, { body: '"yes"' }), 400, 'invalid_request');
    expect((await ctx.request(approve, { body: null })).status).toBe(200);
    const listing = await ctx.request('/v1/listings', {
      body: { seller: seller.body.id, title: 'Lamp', price: { amount: 100, currency: 'USD' } },
    });
    expect((await ctx.request(`/v1/listings/${listing.body.id}/publish`, { method: 'POST' })).status).toBe(200);
    expect((await ctx.request(`/v1/listings/${listing.body.id}/unpublish`, { body: {} })).status).toBe(200);
    // DELETE too: a field is refused, and nothing is erased.
    const erase = `/v1/sellers/${seller.body.id}`;
    expectError(await ctx.request(erase, { method: 'DELETE', body: { really: true } }), 400, 'invalid_request', 'really');
    expect((await ctx.request(erase)).body.erased_at).toBeNull();
    expect((await ctx.request(erase, { method: 'DELETE' })).body.erased_at).not.toBeNull();
  });

  it('page through a list newest first with next_cursor as starting_after', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await widget({ name: `page-${i}` })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: TestResponse = await ctx.request(`/v1/_test/widgets?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.object).toBe('list');
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      if (res.body.has_more) expect(res.body.next_cursor).toBe(res.body.data.at(-1).id);
      else expect(res.body.next_cursor).toBeNull();
      seen.push(...res.body.data.map((row: { id: string }) => row.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...seen].sort().reverse());
    expect(seen.slice(0, 5)).toEqual([...created].reverse());
  });
});

describe('text in the path and the query string', () => {
  it('a NUL character in a path parameter or a query parameter answers 400 naming it, never 500', async () => {
    expectError(await ctx.request('/v1/events/evt_%00'), 400, 'invalid_request', 'id');
    expectError(await ctx.request('/v1/sellers/sel_%00'), 400, 'invalid_request', 'id');
    expectError(await ctx.request('/v1/sellers?external_id=a%00b'), 400, 'invalid_request', 'external_id');
    expectError(await ctx.request('/v1/listings/%00', { key: ctx.keys.test.publishable_key }), 400, 'invalid_request', 'id');
  });

  it('a URL that does not decode, or a path segment over 100 characters, answers 400 in the envelope', async () => {
    for (const url of ['/v1/events/%E0%A4%A', '/v1/events/%ED%A0%80', `/v1/events/${'a'.repeat(500)}`]) {
      expectError(await ctx.request(url), 400, 'invalid_request');
    }
  });
});

describe('OpenAPI', () => {
  it('documents error answers by status class without breaking success serialization', async () => {
    const res = await ctx.request('/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const op = res.body.paths['/v1/marketplace'].get;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '4XX', '5XX']));
  });

  it('documents 4XX and 5XX (never default) on every operation, /manage/v1 included, naming the codes, with their headers', async () => {
    const { paths, components } = (await ctx.request('/v1/openapi.json', { key: null })).body;
    type Response = { description: string; headers?: Record<string, { $ref: string }> };
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const [path, operations] of Object.entries<Record<string, { responses: Record<string, Response> }>>(paths)) {
      for (const [method, { responses }] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(Object.keys(responses), name).toEqual(expect.arrayContaining(['4XX', '5XX']));
        expect(responses.default, name).toBeUndefined();
        for (const [status, response] of Object.entries(responses)) expect(response.headers?.['Request-Id'], `${name} ${status}`).toEqual(ref('Request-Id'));
        expect(responses['4XX']!.headers?.['Retry-After'], name).toEqual(ref('Retry-After'));
        expect(responses['4XX']!.description, name).toContain('400 `invalid_request`');
        const replayed = path.startsWith('/v1/') && method === 'post';
        const success = Object.entries(responses).find(([status]) => /^2/.test(status))![1];
        expect(success.headers?.['Idempotent-Replayed'], name).toEqual(replayed ? ref('Idempotent-Replayed') : undefined);
        expect(success.headers?.['Original-Request'], name).toEqual(replayed ? ref('Original-Request') : undefined);
        expect(responses['4XX']!.headers?.['Original-Request'], name).toEqual(replayed ? ref('Original-Request') : undefined);
      }
    }
    for (const name of ['Request-Id', 'Idempotent-Replayed', 'Original-Request', 'Retry-After']) expect(components.headers[name].description).toEqual(expect.any(String));
    const publish = paths['/v1/listings/{id}/publish'].post.responses['4XX'].description;
    for (const code of ['api_key_invalid', 'secret_key_required', 'marketplace_read_only', 'seller_suspended', 'resource_missing', 'invalid_state', 'idempotency_key_in_use', 'unsupported_media_type', 'rate_limited']) {
      expect(publish).toContain(`\`${code}\``);
    }
    // A publishable-key read: no secret_key_required, read-only or idempotency codes.
    const listings = paths['/v1/listings'].get.responses['4XX'].description;
    for (const code of ['secret_key_required', 'marketplace_read_only', 'idempotency_key_reused']) expect(listings).not.toContain(code);
    expect(paths['/manage/v1/login'].post.responses['4XX'].description).toContain('401 `invalid_credentials`');
    expect(paths['/manage/v1/members'].post.responses['4XX'].description).toContain('403 `permission_denied`');
  });

  it('management answers still serialize under the 4XX/5XX error schemas: successes as declared, errors in the envelope', async () => {
    const email = `oas-${Date.now()}@example.com`;
    const signup = await ctx.request('/manage/v1/signup', { key: null, body: { email, password: 'correct horse battery', workspace_name: 'OAS' } });
    expect(signup.status).toBe(201);
    expect(signup.headers['request-id']).toEqual(expect.any(String));
    const logout = await ctx.request('/manage/v1/logout', { key: signup.body.token, body: {} });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ object: 'logout', revoked: true });
    expectError(await ctx.request('/manage/v1/workspaces', { key: signup.body.token }), 401, 'authentication_required');
  });

  it('documents the Idempotency-Key header on every /v1 POST, and not elsewhere', async () => {
    const { paths } = (await ctx.request('/v1/openapi.json', { key: null })).body;
    const header = (op: { parameters?: Array<{ in: string; name: string }> }) =>
      (op.parameters ?? []).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    for (const path of ['/v1/sellers', '/v1/listings/{id}/publish', '/v1/test_helpers/clock/advance']) {
      expect(header(paths[path].post), path).toMatchObject({ required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
    }
    expect(header(paths['/v1/sellers'].get)).toBeUndefined();
    expect(header(paths['/manage/v1/login'].post)).toBeUndefined();
  });

  it('marks a request body required only when its schema requires a field', async () => {
    const { paths } = (await ctx.request('/v1/openapi.json', { key: null })).body;
    expect(paths['/v1/categories'].post.requestBody.required).toBe(true);
    expect(paths['/v1/sellers'].post.requestBody.required).toBe(false);
    expect(paths['/v1/sellers/{id}/unsuspend'].post.requestBody.required).toBe(false);
  });

  it('documents no request body for operations without body fields (they still take none, {} or null)', async () => {
    const { paths } = (await ctx.request('/v1/openapi.json', { key: null })).body;
    for (const [path, method] of [
      ['/v1/listings/{id}/publish', 'post'],
      ['/v1/listings/{id}/unpublish', 'post'],
      ['/v1/verifications/{id}/approve', 'post'],
      ['/v1/sellers/{id}', 'delete'],
      ['/v1/buyers/{id}', 'delete'],
      ['/manage/v1/logout', 'post'],
      ['/manage/v1/api_keys/{id}', 'delete'],
      ['/manage/v1/members/{user_id}', 'delete'],
    ] as const) {
      expect(paths[path][method].requestBody, `${method} ${path}`).toBeUndefined();
    }
    expect(paths['/manage/v1/members'].delete.requestBody.required).toBe(true);
  });

  it('gives every operation a unique operationId, a summary, a declared tag, an example answer and, when its body has fields, an example body', async () => {
    const doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
    type Media = { schema?: { properties?: Record<string, unknown> }; example?: unknown; examples?: unknown };
    type Operation = {
      operationId?: string;
      summary?: string;
      tags?: string[];
      requestBody?: { content: Record<string, Media> };
      responses: Record<string, { content?: Record<string, Media> }>;
    };
    const tags = new Set((doc.tags as Array<{ name: string; description: string }>).map((tag) => tag.name));
    const ids = new Map<string, string>();
    const problems: string[] = [];
    let count = 0;
    for (const [path, operations] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        count += 1;
        if (!operation.operationId) problems.push(`${name}: no operationId`);
        else if (ids.has(operation.operationId)) problems.push(`${name}: operationId ${operation.operationId} also on ${ids.get(operation.operationId)}`);
        else ids.set(operation.operationId, name);
        if (!operation.summary) problems.push(`${name}: no summary`);
        if (!operation.tags?.length || !operation.tags.every((tag) => tags.has(tag))) problems.push(`${name}: no declared tag`);
        const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
        if (successes.length === 0) problems.push(`${name}: no success response`);
        for (const [status, response] of successes) {
          const media = response.content?.['application/json'];
          if (media?.example === undefined && media?.examples === undefined) problems.push(`${name} ${status}: no example`);
        }
        const body = operation.requestBody?.content['application/json'];
        if (body && Object.keys(body.schema?.properties ?? {}).length > 0 && body.example === undefined && body.examples === undefined) {
          problems.push(`${name}: no request example`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(60);
    expect(operationAt(doc, '/v1/sellers/{id}', 'get').operationId).toBe('retrieveSeller');
    expect(operationAt(doc, '/manage/v1/marketplaces/{id}/modes/{mode}/api_keys', 'get').operationId).toBe('listApiKeys');
  });

  it('declares its tags with descriptions, and its license', async () => {
    const doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
    for (const tag of doc.tags) expect(tag.description, tag.name).toEqual(expect.any(String));
    expect(doc.info.license).toMatchObject({ name: 'Apache-2.0' });
  });
});

function operationAt(doc: { paths: Record<string, Record<string, { operationId?: string }>> }, path: string, method: string) {
  return doc.paths[path]![method]!;
}

describe('health', () => {
  it('answers /healthz and /readyz without a key', async () => {
    expect((await ctx.request('/healthz', { key: null })).body).toEqual({ status: 'ok' });
    expect((await ctx.request('/readyz', { key: null })).status).toBe(200);
  });

  it('/readyz answers 503 while the database does not answer; /healthz still 200', async () => {
    const app = await buildApp({
      services: ctx.services,
      routes: { publishable: [], secret: [], manage: [], root: [] },
      readiness: async () => Promise.reject(new Error('connection refused')),
      logger: false,
    });
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable' });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });
});
