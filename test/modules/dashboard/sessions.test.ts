import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeDashboardCredentialsJob } from '../../../src/modules/dashboard/credential-purge.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, ownerToken } from '../accounts/manage-helpers.js';
import { asBrowser, logIn, setCookieOf } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('POST /manage/v1/sessions', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie for the whole site and answers the CSRF token', async () => {
    const res = await ctx.request('/manage/v1/sessions', { key: null, body: ctx.owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'dashboard_session', user: { object: 'user', email: ctx.owner.email } });
    expect(res.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(res.body.expires_at) - Date.now()).toBeGreaterThan(11 * 3600_000);
    const cookie = setCookieOf(res);
    expect(cookie).toMatch(/^mb_session=mbs_[0-9A-Za-z]{40}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Max-Age=604800');
    expect(cookie).not.toContain('Secure');
    expect(res.headers['cache-control']).toBe('no-store');
    // The cookie's token is stored only as a hash.
    const token = /mb_session=([^;]+)/.exec(cookie)![1]!;
    const rows = await ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM dashboard_sessions');
    expect(rows.some((row) => row.token_hash.includes(token))).toBe(false);
    expect(JSON.stringify(res.body)).not.toContain(token);
  });

  it('answers wrong credentials and unknown emails as POST /manage/v1/login does, and slows the guessing the same way', async () => {
    expectError(await ctx.request('/manage/v1/sessions', { key: null, body: { ...ctx.owner, password: 'not the password' } }), 401, 'invalid_credentials');
    expectError(await ctx.request('/manage/v1/sessions', { key: null, body: { email: 'nobody@example.com', password: 'x' } }), 401, 'invalid_credentials');
    const email = 'guessed@example.com';
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 5; i++) {
      expectError(await ctx.request('/manage/v1/sessions', { key: null, headers, body: { email, password: `guess ${i}` } }), 401, 'invalid_credentials');
    }
    const refused = await ctx.request('/manage/v1/sessions', { key: null, headers, body: { email, password: 'guess 5' } });
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same bucket as the token login: it is refused there too.
    expectError(await ctx.request('/manage/v1/login', { key: null, headers, body: { email, password: 'guess 6' } }), 429, 'rate_limited');
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await startTestApp({ env: { PUBLIC_URL: 'https://market.example.com' } });
    try {
      const res = await secure.request('/manage/v1/sessions', { key: null, body: secure.owner });
      expect(res.status).toBe(200);
      expect(setCookieOf(res)).toContain('Secure');
    } finally {
      await secure.close();
    }
  });
});

describe('GET /manage/v1/session', () => {
  it('answers the user, the CSRF token again and the workspaces with the role', async () => {
    const session = await logIn(ctx, ctx.owner);
    const res = await asBrowser(ctx, session, '/manage/v1/session', { csrf: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'dashboard_session',
      user: { id: session.userId, email: ctx.owner.email },
      csrf_token: session.csrf,
      workspaces: [{ id: ctx.workspaceId, name: 'Test workspace', role: 'owner' }],
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('needs the session cookie: none, an unknown one, or a management token alone is 401', async () => {
    expectError(await ctx.request('/manage/v1/session', { key: null }), 401, 'authentication_required');
    expectError(await ctx.request('/manage/v1/session', { key: null, headers: { cookie: 'mb_session=mbs_' + 'x'.repeat(40) } }), 401, 'authentication_required');
    expectError(await ctx.request('/manage/v1/session', { key: await ownerToken(ctx) }), 401, 'authentication_required');
  });

  it('ends after 12 hours without use, and 7 days after login however busy', async () => {
    const session = await logIn(ctx, ctx.owner);
    await ctx.db.query(`UPDATE dashboard_sessions SET last_used_at = now() - interval '12 hours 1 minute' WHERE user_id = $1`, [session.userId]);
    expectError(await asBrowser(ctx, session, '/manage/v1/session'), 401, 'authentication_required');
    const busy = await logIn(ctx, ctx.owner);
    await ctx.db.query(`UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE last_used_at > now() - interval '1 minute'`);
    expectError(await asBrowser(ctx, busy, '/manage/v1/session'), 401, 'authentication_required');
  });
});

describe('the session cookie on the management API', () => {
  it('authenticates like a management token', async () => {
    const session = await logIn(ctx, ctx.owner);
    const res = await asBrowser(ctx, session, '/manage/v1/marketplaces');
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { id: string }) => m.id)).toContain(ctx.marketplaceId);
  });

  it('refuses a change without the CSRF token, or with another session\'s, with 403 csrf_token_invalid', async () => {
    const session = await logIn(ctx, ctx.owner);
    const other = await logIn(ctx, ctx.owner);
    const url = `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/test/settings`;
    const change = { method: 'PATCH' as const, body: { rate_limit_per_second: 500 } };
    expectError(await asBrowser(ctx, session, url, { ...change, csrf: false }), 403, 'csrf_token_invalid', 'X-CSRF-Token');
    expectError(await asBrowser(ctx, session, url, { ...change, headers: { 'x-csrf-token': other.csrf } }), 403, 'csrf_token_invalid', 'X-CSRF-Token');
    const done = await asBrowser(ctx, session, url, change);
    expect(done.status).toBe(200);
    expect(done.body.rate_limit_per_second).toBe(500);
    // Reads need no token.
    expect((await asBrowser(ctx, session, url, { csrf: false })).status).toBe(200);
  });

  it('does not ask a Bearer request for a CSRF token, even with a cookie beside it', async () => {
    const session = await logIn(ctx, ctx.owner);
    const res = await ctx.request(`/manage/v1/marketplaces/${ctx.marketplaceId}/modes/test/settings`, {
      key: await ownerToken(ctx),
      method: 'PATCH',
      headers: { cookie: session.cookie },
      body: { rate_limit_per_second: 10000 },
    });
    expect(res.status).toBe(200);
  });
});

describe('DELETE /manage/v1/session', () => {
  it('needs the CSRF token, then ends the session and clears the cookie', async () => {
    const session = await logIn(ctx, ctx.owner);
    const kept = await logIn(ctx, ctx.owner);
    expectError(await asBrowser(ctx, session, '/manage/v1/session', { method: 'DELETE', csrf: false }), 403, 'csrf_token_invalid', 'X-CSRF-Token');
    const res = await asBrowser(ctx, session, '/manage/v1/session', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'dashboard_session', deleted: true });
    expect(setCookieOf(res)).toMatch(/^mb_session=; .*Expires=Thu, 01 Jan 1970/);
    expect(setCookieOf(res)).toContain('Path=/');
    expectError(await asBrowser(ctx, session, '/manage/v1/session'), 401, 'authentication_required');
    expectError(await asBrowser(ctx, session, '/manage/v1/marketplaces'), 401, 'authentication_required');
    // Other sessions of the user go on.
    expect((await asBrowser(ctx, kept, '/manage/v1/session')).status).toBe(200);
  });

  it('is the way out: POST /manage/v1/logout with the cookie alone answers 400 and ends nothing', async () => {
    const session = await logIn(ctx, ctx.owner);
    const res = await asBrowser(ctx, session, '/manage/v1/logout', { method: 'POST' });
    expectError(res, 400, 'invalid_request');
    expect(res.body.error.message).toContain('DELETE /manage/v1/session');
    expect((await asBrowser(ctx, session, '/manage/v1/session')).status).toBe(200);
  });
});

describe('the purge of ended credentials', () => {
  it('deletes sessions past their end and password resets past their hour, and keeps live ones', async () => {
    const live = await logIn(ctx, ctx.owner);
    const idle = await logIn(ctx, ctx.owner);
    const idleId = (await ctx.db.query<{ id: string }>('SELECT id FROM dashboard_sessions ORDER BY id DESC LIMIT 1'))[0]!.id;
    await ctx.db.query(`UPDATE dashboard_sessions SET last_used_at = now() - interval '13 hours' WHERE id = $1`, [idleId]);
    await ctx.request('/manage/v1/password_resets', { key: null, body: { email: ctx.owner.email } });
    await ctx.db.query(`UPDATE password_resets SET expires_at = now() - interval '1 minute'`);
    await purgeDashboardCredentialsJob.run(ctx.services, { error: () => undefined }, new Map());
    expect(await ctx.db.query('SELECT id FROM dashboard_sessions WHERE id = $1', [idleId])).toEqual([]);
    expect(await ctx.db.query('SELECT token_hash FROM password_resets')).toEqual([]);
    expect((await asBrowser(ctx, live, '/manage/v1/session')).status).toBe(200);
    expectError(await asBrowser(ctx, idle, '/manage/v1/session'), 401, 'authentication_required');
  });
});
