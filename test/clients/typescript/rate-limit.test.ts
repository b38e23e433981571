// The TypeScript client under a real rate limit (the default 25 requests per second per test key,
// a bucket of 50): a burst past it gets 429s with Retry-After, which the client waits out and
// retries, so every call succeeds; without retries the 429 is a rate_limit_error.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MarketplaceError } from '../../../clients/typescript/src/index.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { listen, recordingClient } from './helpers.js';

let ctx: TestContext;
let baseUrl: string;

beforeAll(async () => {
  ctx = await startTestApp({ defaultRateLimits: true });
  baseUrl = await listen(ctx);
});
afterAll(() => ctx.close());

it('waits Retry-After on a 429 and retries until every request of a burst succeeds', async () => {
  const { client, attempts } = recordingClient(baseUrl, ctx.keys.test.secret_key);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 100 }, () => client.get('/v1/marketplace')));
  const elapsed = Date.now() - started;

  expect(answers.every((marketplace) => marketplace.id === ctx.marketplaceId)).toBe(true);
  const limited = attempts.filter((a) => a.status === 429);
  expect(limited.length).toBeGreaterThan(0); // 100 at once against a bucket of 50 (refilled at 25 per second)
  expect(limited.every((a) => Number(a.retryAfter) >= 1)).toBe(true);
  expect(attempts.filter((a) => a.status === 200)).toHaveLength(100);
  expect(elapsed).toBeGreaterThanOrEqual(950); // Retry-After: 1, honoured (the client's own backoff is 10 ms here)
});

it('answers the 429 as a rate_limit_error when retries are off', async () => {
  const { client } = recordingClient(baseUrl, ctx.keys.test.secret_key, { maxRetries: 0 });
  const results = await Promise.allSettled(Array.from({ length: 100 }, () => client.get('/v1/marketplace')));
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  expect(refused.length).toBeGreaterThan(0);
  expect(refused[0]).toBeInstanceOf(MarketplaceError);
  expect(refused[0]).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limited' });
});
