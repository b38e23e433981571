// Login throttling through the real app: attempts are counted atomically before the password is
// checked, by (email, client address), by client address and by email; a stranger cannot lock the
// owner out from their own address; windows end on the (injected) clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { LOGIN_LIMITS } from '../../../src/modules/accounts/throttle.js';
import { createApp } from '../../../src/app/runtime.js';
import { startTestApp, testConfig, type TestContext } from '../../helpers/harness.js';
import { PASSWORD, uniqueEmail } from './manage-helpers.js';

const clock = new ManualClock();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ clock });
});
afterAll(() => ctx.close());

const WINDOW_MS = 15 * 60 * 1000;

async function login(email: string, password: string, remoteAddress: string) {
  const res = await ctx.app.inject({ method: 'POST', url: '/manage/v1/login', payload: { email, password }, remoteAddress });
  return { status: res.statusCode, code: (res.json() as { error?: { code: string } }).error?.code, retryAfter: res.headers['retry-after'], message: (res.json() as { error?: { message: string } }).error?.message };
}

async function signUp(): Promise<string> {
  const email = uniqueEmail('throttled');
  const res = await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: 'T' } });
  expect(res.status).toBe(201);
  return email;
}

describe('login throttling', () => {
  it('the limits are as documented', () => {
    expect(LOGIN_LIMITS).toEqual({
      pair: { attempts: 5, windowMs: WINDOW_MS },
      address: { attempts: 100, windowMs: WINDOW_MS },
      email: { attempts: 50, windowMs: WINDOW_MS },
    });
  });

  it('30 parallel wrong passwords for one email from one address: 5 are judged, 25 answer 429', async () => {
    const email = await signUp();
    const answers = await Promise.all(Array.from({ length: 30 }, () => login(email, 'wrong password', '203.0.113.1')));
    expect(answers.filter((a) => a.status === 401 && a.code === 'invalid_credentials')).toHaveLength(LOGIN_LIMITS.pair.attempts);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(30 - LOGIN_LIMITS.pair.attempts);
    expect(refused[0]).toMatchObject({ code: 'rate_limited', retryAfter: String(WINDOW_MS / 1000) });
    expect(refused[0]!.message).toBe('Too many login attempts for this email from this address; wait Retry-After seconds.');

    // The right password from that address waits too; the owner from another address logs in.
    expect((await login(email, PASSWORD, '203.0.113.1')).status).toBe(429);
    expect((await login(email, PASSWORD, '198.51.100.7')).status).toBe(200);

    // Once the window ends, the address may try again.
    clock.advance(WINDOW_MS);
    expect((await login(email, 'wrong password', '203.0.113.1')).code).toBe('invalid_credentials');
    expect((await login(email, PASSWORD, '203.0.113.1')).status).toBe(200);
  });

  it('a correct login does not count, and clears its address’s failures for the email', async () => {
    const email = await signUp();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < LOGIN_LIMITS.pair.attempts - 1; i++) expect((await login(email, 'wrong', '203.0.113.2')).status).toBe(401);
      expect((await login(email, PASSWORD, '203.0.113.2')).status).toBe(200);
    }
  });

  it('one address guessing many emails is refused past 100 attempts, whatever the email', async () => {
    const email = await signUp();
    // Refused attempts count against the address too: 5 judged, 95 refused.
    const answers = await Promise.all(Array.from({ length: LOGIN_LIMITS.address.attempts }, () => login(email, 'wrong', '203.0.113.3')));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(LOGIN_LIMITS.pair.attempts);
    const other = await login(await signUp(), PASSWORD, '203.0.113.3');
    expect(other).toMatchObject({ status: 429, message: 'Too many login attempts from this address; wait Retry-After seconds.' });
    // Those refusals were the address's own: the email's owner elsewhere is not locked out.
    expect((await login(email, PASSWORD, '198.51.100.8')).status).toBe(200);
    clock.advance(WINDOW_MS);
    expect((await login(email, PASSWORD, '203.0.113.3')).status).toBe(200);
  });

  it('a flood on one email from many addresses locks it for everyone until the window ends', async () => {
    const email = await signUp();
    const addresses = Array.from({ length: LOGIN_LIMITS.email.attempts / LOGIN_LIMITS.pair.attempts }, (_, i) => `192.0.2.${i + 1}`);
    const answers = await Promise.all(
      addresses.flatMap((address) => Array.from({ length: LOGIN_LIMITS.pair.attempts }, () => login(email, 'wrong', address))),
    );
    expect(answers.every((a) => a.status === 401)).toBe(true);
    const owner = await login(email, PASSWORD, '198.51.100.9');
    expect(owner).toMatchObject({ status: 429, message: 'Too many login attempts for this email; wait Retry-After seconds.' });
    expect(Number(owner.retryAfter)).toBeGreaterThan(0);
    expect(Number(owner.retryAfter)).toBeLessThanOrEqual(WINDOW_MS / 1000);
    clock.advance(WINDOW_MS);
    expect((await login(email, PASSWORD, '198.51.100.9')).status).toBe(200);
  });

  it('keeps one row per bucket, and prunes buckets whose window ended', async () => {
    clock.advance(WINDOW_MS);
    await login(uniqueEmail('prune'), 'wrong', '203.0.113.99');
    const rows = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM login_attempts WHERE expires_at <= $1', [new Date(clock.nowMs())]);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('the client address behind a proxy', () => {
  it('is the connection’s by default: X-Forwarded-For does not move an attempt to another bucket', async () => {
    const email = await signUp();
    for (let i = 0; i < LOGIN_LIMITS.pair.attempts; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/manage/v1/login',
        payload: { email, password: 'wrong' },
        remoteAddress: '203.0.113.4',
        headers: { 'x-forwarded-for': `198.18.0.${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await login(email, PASSWORD, '203.0.113.4')).status).toBe(429);
  });

  it('with TRUST_PROXY naming the proxy, is the address it forwards', async () => {
    // A second app on the same database, as an API process started with TRUST_PROXY=10.0.0.0/8.
    const config = testConfig({ TRUST_PROXY: '10.0.0.0/8' });
    const proxied = await createApp({ ...ctx.services, config }, { logger: false });
    try {
      const email = await signUp();
      const viaProxy = (client: string, password: string) =>
        proxied.inject({
          method: 'POST',
          url: '/manage/v1/login',
          payload: { email, password },
          remoteAddress: '10.1.2.3',
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < LOGIN_LIMITS.pair.attempts; i++) expect((await viaProxy('203.0.113.5', 'wrong')).statusCode).toBe(401);
      expect((await viaProxy('203.0.113.5', PASSWORD)).statusCode).toBe(429);
      expect((await viaProxy('198.51.100.10', PASSWORD)).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});
