// The secret-taking routes of callers who are not signed in, attacked from the outside: sign-up and
// password resets are counted by client address and by target before anything is checked, answer
// 429 with Retry-After past a limit, and a guessed reset token never runs scrypt.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import * as passwords from '../../../src/modules/accounts/passwords.js';
import { SECRET_ROUTE_LIMITS } from '../../../src/modules/accounts/secret-throttle.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { PASSWORD, uniqueEmail } from './manage-helpers.js';

// A spy around the real hashPassword, to count the hashes a request sequence runs.
vi.mock('../../../src/modules/accounts/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/modules/accounts/passwords.js')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});
const hashPassword = vi.mocked(passwords.hashPassword);

const clock = new ManualClock();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ clock });
});
afterAll(() => ctx.close());
beforeEach(() => {
  // Every test starts in windows of its own.
  clock.advance(24 * 60 * 60 * 1000);
  hashPassword.mockClear();
});

const { signup, password_reset_request: resetRequest, password_reset_confirm: resetConfirm } = SECRET_ROUTE_LIMITS;

async function post(url: string, payload: object, remoteAddress: string) {
  const res = await ctx.app.inject({ method: 'POST', url, payload, remoteAddress });
  const error = (res.json() as { error?: { code: string; param?: string; message: string } }).error;
  return { status: res.statusCode, code: error?.code, param: error?.param, message: error?.message, retryAfter: res.headers['retry-after'] };
}

const signUp = (email: string, address: string) => post('/manage/v1/signup', { email, password: PASSWORD, workspace_name: 'W' }, address);

/** A real reset link's token, as the user's mailbox receives it (beside sign-up's verification email). */
async function resetToken(email: string): Promise<string> {
  expect((await post('/manage/v1/password_resets', { email }, '198.51.100.50')).status).toBe(202);
  const [row] = await ctx.db.query<{ body_text: string }>(`SELECT body_text FROM emails WHERE to_addresses @> jsonb_build_array($1::text) AND position('#token=pwr_' in body_text) > 0 ORDER BY created_at DESC LIMIT 1`, [email]);
  return /#token=(pwr_[0-9A-Za-z]{40})/.exec(row!.body_text)![1]!;
}

describe('password reset confirmation', () => {
  it('150 wrong tokens from one client: 20 answer 400, the rest 429 with Retry-After, and none runs scrypt', async () => {
    const guesses = Array.from({ length: 150 }, (_, i) => `pwr_${String(i).padStart(40, 'x')}`);
    const answers = await Promise.all(guesses.map((token) => post('/manage/v1/password_resets/confirm', { token, password: 'an attacker password' }, '203.0.113.30')));
    expect(answers.filter((a) => a.status === 400 && a.code === 'invalid_request' && a.param === 'token')).toHaveLength(resetConfirm.address.attempts);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(150 - resetConfirm.address.attempts);
    expect(refused[0]).toMatchObject({ code: 'rate_limited', retryAfter: String(resetConfirm.address.windowMs / 1000) });
    expect(hashPassword).not.toHaveBeenCalled();

    // The client waits for the window; the account holder, from elsewhere, resets at once.
    const email = uniqueEmail('holder');
    expect((await signUp(email, '198.51.100.51')).status).toBe(201);
    const token = await resetToken(email);
    expect((await post('/manage/v1/password_resets/confirm', { token, password: 'a brand new password' }, '203.0.113.30')).status).toBe(429);
    expect((await post('/manage/v1/password_resets/confirm', { token, password: 'a brand new password' }, '198.51.100.52')).status).toBe(200);
    clock.advance(resetConfirm.address.windowMs);
    expect((await post('/manage/v1/password_resets/confirm', { token: guesses[0], password: 'an attacker password' }, '203.0.113.30')).code).toBe('invalid_request');
  });

  it('one token tried from many addresses is refused past 5 tries, whoever sends them', async () => {
    const email = uniqueEmail('target');
    expect((await signUp(email, '198.51.100.53')).status).toBe(201);
    const token = await resetToken(email);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post('/manage/v1/password_resets/confirm', { token, password: 'short' }, `192.0.2.${i + 10}`)),
    );
    // Too short: the body is refused by its schema before the route counts it.
    expect(answers.every((a) => a.status === 400 && a.param === 'password')).toBe(true);
    const tries = [];
    for (let i = 0; i < resetConfirm.target.attempts + 1; i++) {
      tries.push(await post('/manage/v1/password_resets/confirm', { token, password: `a new password number ${i}` }, `192.0.2.${i + 30}`));
    }
    // The first try uses the token; the next ones find it used; past 5 the token's bucket refuses.
    expect(tries.map((t) => t.status)).toEqual([200, 400, 400, 400, 400, 429]);
    expect(tries[5]!.message).toContain('for this target');
  });
});

describe('password reset requests', () => {
  it('a flood for one email from many addresses sends 3 emails, then answers 429', async () => {
    const email = uniqueEmail('mailbox');
    expect((await signUp(email, '198.51.100.54')).status).toBe(201);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await post('/manage/v1/password_resets', { email }, `192.0.2.${i + 50}`));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(resetRequest.target.attempts);
    expect(answers.slice(resetRequest.target.attempts).every((a) => a.status === 429 && a.code === 'rate_limited' && Number(a.retryAfter) > 0)).toBe(true);
    const [sent] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM emails WHERE to_addresses @> jsonb_build_array($1::text) AND position('#token=pwr_' in body_text) > 0`, [email]);
    expect(sent!.n).toBe(resetRequest.target.attempts);
  });

  it('one client asking for many emails is refused past 20 an hour', async () => {
    for (let i = 0; i < resetRequest.address.attempts; i++) {
      expect((await post('/manage/v1/password_resets', { email: uniqueEmail('spray') }, '203.0.113.31')).status).toBe(202);
    }
    const refused = await post('/manage/v1/password_resets', { email: uniqueEmail('spray') }, '203.0.113.31');
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: String(resetRequest.address.windowMs / 1000) });
    expect(refused.message).toContain('from this address');
  });
});

describe('sign-up', () => {
  it('one address signing up past 10 accounts an hour gets 429 with Retry-After, before any hash', async () => {
    for (let i = 0; i < signup.address.attempts; i++) expect((await signUp(uniqueEmail('bulk'), '203.0.113.32')).status).toBe(201);
    hashPassword.mockClear();
    const refused = await signUp(uniqueEmail('bulk'), '203.0.113.32');
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: String(signup.address.windowMs / 1000) });
    expect(refused.message).toBe('Too many signup attempts from this address (at most 10 per 60 minutes); wait Retry-After seconds.');
    expect(hashPassword).not.toHaveBeenCalled();
    // Another address signs up; this one again once its window ends.
    expect((await signUp(uniqueEmail('bulk'), '198.51.100.55')).status).toBe(201);
    clock.advance(signup.address.windowMs);
    expect((await signUp(uniqueEmail('bulk'), '203.0.113.32')).status).toBe(201);
  });

  it('probing one email from many addresses is stopped by the email’s bucket after 3 attempts', async () => {
    const email = uniqueEmail('victim');
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await signUp(email, `192.0.2.${i + 100}`));
    expect(answers.map((a) => a.status)).toEqual([201, 409, 409, 429, 429, 429, 429, 429]);
    expect(answers[3]!.message).toBe('Too many signup attempts for this target (at most 3 per 60 minutes); wait Retry-After seconds.');
    expect(Number(answers[3]!.retryAfter)).toBeGreaterThan(0);
    // The address's own refusals do not count against the email: a fresh one still signs up.
    expect((await signUp(uniqueEmail('fresh'), '192.0.2.100')).status).toBe(201);
  });
});
