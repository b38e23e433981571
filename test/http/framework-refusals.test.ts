// Every answer is the same kind of answer (docs/requests.md): a refusal Fastify makes itself
// (before the hooks run, or in its body parsing) answers the envelope with its Request-Id, carries
// the CORS headers where the path is a publishable-key operation's, is counted in GET /metrics'
// request-duration histogram, and is logged as "request completed" like every request.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type RequestOptions, type TestContext } from '../helpers/harness.js';

const OPERATOR_TOKEN = 'operator-token-for-framework-refusals';
let ctx: TestContext;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  ctx = await startTestApp({ logger: { level: 'info', stream }, env: { OPERATOR_TOKEN } });
}, 180_000);
afterAll(() => ctx?.close());

/** The count of the histogram's series for this method and status on unmatched or the given route. */
async function counted(method: string, status: number, route: string): Promise<number> {
  const text = (await ctx.request('/metrics', { key: OPERATOR_TOKEN })).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes(`method="${method}"`) && l.includes(`status="${status}"`) && l.includes(`route="${route}"`));
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

interface Refusal {
  name: string;
  url: string;
  options: RequestOptions;
  status: number;
  code: string;
  /** The route label the histogram counts it under. */
  route: string;
  cors: boolean;
}

const pk = () => ctx.keys.test.publishable_key;

const refusals = (): Refusal[] => [
  { name: 'a %-escape that does not decode, on a publishable path', url: '/v1/listings/%E0%A4%A', options: { key: pk() }, status: 400, code: 'invalid_request', route: 'unmatched', cors: true },
  { name: 'a path segment over 100 characters, on a publishable path', url: `/v1/listings/lst_${'a'.repeat(100)}`, options: { key: pk() }, status: 400, code: 'invalid_request', route: 'unmatched', cors: true },
  { name: 'a %-escape that does not decode, on a secret-key path', url: '/v1/orders/%E0%A4%A', options: {}, status: 400, code: 'invalid_request', route: 'unmatched', cors: false },
  { name: 'no route for this method of a publishable path', url: '/v1/listings', options: { key: pk(), method: 'DELETE' }, status: 404, code: 'resource_missing', route: 'unmatched', cors: true },
  { name: 'no route at all', url: '/v1/nothing-here', options: { key: pk() }, status: 404, code: 'resource_missing', route: 'unmatched', cors: false },
  {
    name: 'a body that is not JSON',
    url: '/v1/buyers',
    options: { method: 'POST', body: '{"external_id": ', headers: { 'content-type': 'application/json' } },
    status: 400,
    code: 'invalid_request',
    route: '/v1/buyers',
    cors: false,
  },
  {
    name: 'a body of another content type',
    url: '/v1/buyers',
    options: { method: 'POST', body: 'external_id=x', headers: { 'content-type': 'text/plain' } },
    status: 415,
    code: 'unsupported_media_type',
    route: '/v1/buyers',
    cors: false,
  },
  {
    name: 'a body over 1 MiB',
    url: '/v1/buyers',
    options: { method: 'POST', body: JSON.stringify({ external_id: 'x'.repeat(1024 * 1024 + 10) }) },
    status: 413,
    code: 'request_too_large',
    route: '/v1/buyers',
    cors: false,
  },
];

it('answers each framework refusal in the envelope, with CORS where the path is publishable, counted and logged', async () => {
  for (const refusal of refusals()) {
    const method = refusal.options.method ?? 'GET';
    const before = await counted(method, refusal.status, refusal.route);
    lines.length = 0;
    const answer = await ctx.request(refusal.url, refusal.options);
    expect(answer.status, refusal.name).toBe(refusal.status);
    const requestId = answer.headers['request-id'];
    expect(requestId, refusal.name).toMatch(/^req_/);
    expect(answer.body, refusal.name).toEqual({ error: expect.objectContaining({ code: refusal.code, message: expect.any(String), request_id: requestId }) });
    expect(answer.headers['access-control-allow-origin'], refusal.name).toBe(refusal.cors ? '*' : undefined);
    if (refusal.cors) expect(answer.headers['access-control-expose-headers'], refusal.name).toContain('Request-Id');
    const completed = lines.find((line) => line.msg === 'request completed' && line.reqId === requestId);
    expect(completed, `${refusal.name}: a "request completed" log line`).toMatchObject({ res: { statusCode: refusal.status } });
    expect(await counted(method, refusal.status, refusal.route), `${refusal.name}: counted`).toBe(before + 1);
  }
});
