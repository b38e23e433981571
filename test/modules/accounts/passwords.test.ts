// Password hashing at its default cost (the harness lowers it for every other test file): OWASP's
// N=2^17, named in the stored hash; a hash of older parameters is replaced at the next login; at
// most two hashes run at once in a process.
import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitConcurrency } from '../../../src/concurrency.js';
import { ConfigError, parseConfig } from '../../../src/config.js';
import { MAX_CONCURRENT_HASHES, needsRehash } from '../../../src/modules/accounts/passwords.js';
import { startTestApp, testConfig, type TestContext } from '../../helpers/harness.js';
import { PASSWORD, uniqueEmail } from './manage-helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  // Empty is unset: the service's default cost.
  ctx = await startTestApp({ env: { PASSWORD_HASH_COST: '' } });
});
afterAll(() => ctx.close());

/** A hash as the service stored it before: scrypt with N=2^14. */
function oldHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 64, { N: 2 ** 14, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

async function storedHash(email: string): Promise<string> {
  const [row] = await ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [email]);
  return row!.password_hash;
}

const login = (email: string, password: string) => ctx.request('/manage/v1/login', { key: null, body: { email, password } });

describe('the password hash', () => {
  it('is scrypt with N=2^17, r=8, p=1 by default, named in the stored hash', async () => {
    expect(ctx.config.passwordHashCost).toBe(17);
    const email = uniqueEmail('costly');
    expect((await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: 'C' } })).status).toBe(201);
    expect(await storedHash(email)).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('of older parameters is re-hashed at the next login; the password still works and is not re-hashed again', async () => {
    const email = uniqueEmail('old');
    expect((await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: 'O' } })).status).toBe(201);
    const before = oldHash(PASSWORD);
    await ctx.db.query('UPDATE users SET password_hash = $2 WHERE email = $1', [email, before]);

    // A wrong password changes nothing.
    expect((await login(email, 'not the password')).status).toBe(401);
    expect(await storedHash(email)).toBe(before);

    expect((await login(email, PASSWORD)).status).toBe(200);
    const rehashed = await storedHash(email);
    expect(rehashed).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(needsRehash(rehashed, 17)).toBe(false);

    expect((await login(email, PASSWORD)).status).toBe(200);
    expect(await storedHash(email)).toBe(rehashed);
  });

  it('that asks for more than 2^20, or is not scrypt, never matches', async () => {
    const email = uniqueEmail('odd');
    expect((await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: 'X' } })).status).toBe(201);
    const huge = oldHash(PASSWORD).replace('scrypt$16384$', 'scrypt$2097152$');
    for (const stored of [huge, oldHash(PASSWORD).replace('scrypt$16384$', 'scrypt$12345$'), 'bcrypt$2b$10$whatever']) {
      await ctx.db.query('UPDATE users SET password_hash = $2 WHERE email = $1', [email, stored]);
      expect((await login(email, PASSWORD)).body.error.code).toBe('invalid_credentials');
      expect(needsRehash(stored, ctx.config.passwordHashCost)).toBe(true);
    }
  });
});

describe('PASSWORD_HASH_COST', () => {
  it('defaults to 17, and takes a whole number from 10 to 20', () => {
    expect(parseConfig({ SECRET_KEY: 'a'.repeat(64), DATA_DIR: ctx.config.dataDir }).passwordHashCost).toBe(17);
    expect(testConfig({ PASSWORD_HASH_COST: '14' }).passwordHashCost).toBe(14);
    for (const bad of ['9', '21', '16.5', 'high']) {
      expect(() => testConfig({ PASSWORD_HASH_COST: bad })).toThrow(ConfigError);
      expect(() => testConfig({ PASSWORD_HASH_COST: bad })).toThrow(`PASSWORD_HASH_COST: must be a whole number from 10 to 20 (log2 of scrypt's N); got "${bad}"`);
    }
  });
});

describe('the concurrency bound', () => {
  it('runs at most the limit at once, the others in arrival order as slots free', async () => {
    expect(MAX_CONCURRENT_HASHES).toBe(2);
    const limit = limitConcurrency(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const jobs = Array.from({ length: 5 }, (_, i) =>
      limit.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return i;
      }),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(started).toEqual([0, 1]);
    releases.shift()!();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    while (releases.length > 0) {
      releases.shift()!();
      await settle();
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('gives the slot back when the work fails', async () => {
    const limit = limitConcurrency(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run(() => Promise.resolve('next'))).toBe('next');
  });
});
