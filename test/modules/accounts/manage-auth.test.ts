import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, PASSWORD, uniqueEmail } from './manage-helpers.js';

let ctx: TestContext;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock();
  ctx = await startTestApp({ clock });
});
afterAll(() => ctx.close());

describe('POST /manage/v1/signup', () => {
  it('creates a user, their workspace and a working token', async () => {
    const email = uniqueEmail('Signup').replace('signup', 'SignUp');
    const res = await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: 'Acme' } });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ object: 'user', email: email.toLowerCase() });
    expect(res.body.user.id).toMatch(/^usr_/);
    expect(res.body.workspace).toMatchObject({ object: 'workspace', name: 'Acme', billing_state: 'active' });
    expect(res.body.token).toMatch(/^mgt_[0-9A-Za-z]{40}$/);
    expect(Date.parse(res.body.token_expires_at) - clock.nowMs()).toBe(30 * 86_400_000);
    const workspaces = await ctx.request('/manage/v1/workspaces', { key: res.body.token });
    expect(workspaces.status).toBe(200);
    expect(workspaces.body.data).toEqual([{ object: 'workspace_membership', workspace: res.body.workspace, role: 'owner' }]);
  });

  it('refuses an email that has an account, whatever its case', async () => {
    const res = await ctx.request('/manage/v1/signup', {
      key: null,
      body: { email: ctx.owner.email.toUpperCase(), password: PASSWORD, workspace_name: 'Again' },
    });
    expectError(res, 409, 'resource_exists', 'email');
  });

  it.each([
    [{ email: 'not-an-email', password: PASSWORD, workspace_name: 'A' }, 'email'],
    [{ email: `${'a'.repeat(250)}@example.com`, password: PASSWORD, workspace_name: 'A' }, 'email'],
    [{ email: uniqueEmail(), password: 'short', workspace_name: 'A' }, 'password'],
    [{ email: uniqueEmail(), password: PASSWORD, workspace_name: '' }, 'workspace_name'],
    [{ email: uniqueEmail(), password: PASSWORD, workspace_name: '   ' }, 'workspace_name'],
    [{ email: uniqueEmail(), password: PASSWORD, workspace_name: 'x'.repeat(121) }, 'workspace_name'],
    [{ email: uniqueEmail(), password: PASSWORD }, 'workspace_name'],
    [{ email: uniqueEmail(), password: PASSWORD, workspace_name: 'A', plan: 'pro' }, 'plan'],
  ])('answers 400 for %j', async (body, param) => {
    expectError(await ctx.request('/manage/v1/signup', { key: null, body }), 400, 'invalid_request', param);
  });

  it('answers 403 signup_closed when SIGNUP=closed', async () => {
    const closed = await startTestApp({ env: { SIGNUP: 'closed' } });
    try {
      const res = await closed.request('/manage/v1/signup', { key: null, body: { email: uniqueEmail(), password: PASSWORD, workspace_name: 'A' } });
      expectError(res, 403, 'signup_closed');
    } finally {
      await closed.close();
    }
  });
});

describe('POST /manage/v1/login', () => {
  it('answers a token for the right password, with the email in any case', async () => {
    const res = await ctx.request('/manage/v1/login', { key: null, body: { ...ctx.owner, email: ctx.owner.email.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(ctx.owner.email);
    expect((await ctx.request('/manage/v1/marketplaces', { key: res.body.token })).status).toBe(200);
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const wrong = await ctx.request('/manage/v1/login', { key: null, body: { email: ctx.owner.email, password: 'not the password' } });
    const unknown = await ctx.request('/manage/v1/login', { key: null, body: { email: uniqueEmail(), password: 'not the password' } });
    expectError(wrong, 401, 'invalid_credentials');
    expectError(unknown, 401, 'invalid_credentials');
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
  });

  it('throttles an email after 5 failures in 15 minutes, then lets it try again', async () => {
    const signup = await ctx.request('/manage/v1/signup', { key: null, body: { email: uniqueEmail('throttle'), password: PASSWORD, workspace_name: 'T' } });
    const email = signup.body.user.email;
    for (let i = 0; i < 5; i++) {
      expectError(await ctx.request('/manage/v1/login', { key: null, body: { email, password: 'wrong password' } }), 401, 'invalid_credentials');
      clock.advance(60_000);
    }
    const throttled = await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } });
    expectError(throttled, 429, 'rate_limited');
    // The first failure was 5 minutes ago: it leaves the window in 10 minutes.
    expect(throttled.headers['retry-after']).toBe('600');
    clock.advance(600_000);
    const ok = await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } });
    expect(ok.status).toBe(200);
    // Success clears the count: five new failures are needed to throttle again.
    expectError(await ctx.request('/manage/v1/login', { key: null, body: { email, password: 'wrong password' } }), 401, 'invalid_credentials');
    expect((await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } })).status).toBe(200);
  });

  it('refuses a body without a password', async () => {
    expectError(await ctx.request('/manage/v1/login', { key: null, body: { email: ctx.owner.email } }), 400, 'invalid_request', 'password');
  });
});

describe('management authentication', () => {
  it('answers 401 authentication_required without a token, and for an invalid one with another message', async () => {
    const missing = await ctx.request('/manage/v1/marketplaces', { key: null });
    const invalid = await ctx.request('/manage/v1/marketplaces', { key: 'mgt_notarealtoken' });
    const apiKey = await ctx.request('/manage/v1/marketplaces', { key: ctx.keys.test.secret_key });
    expectError(missing, 401, 'authentication_required');
    expectError(invalid, 401, 'authentication_required');
    expectError(apiKey, 401, 'authentication_required');
    expect(missing.body.error.message).not.toBe(invalid.body.error.message);
  });

  it('expires a token after 30 days', async () => {
    const login = await ctx.request('/manage/v1/login', { key: null, body: ctx.owner });
    clock.advance(30 * 86_400_000 - 1000);
    expect((await ctx.request('/manage/v1/workspaces', { key: login.body.token })).status).toBe(200);
    clock.advance(1000);
    expectError(await ctx.request('/manage/v1/workspaces', { key: login.body.token }), 401, 'authentication_required');
  });

  it('revokes the token on logout', async () => {
    const login = await ctx.request('/manage/v1/login', { key: null, body: ctx.owner });
    const out = await ctx.request('/manage/v1/logout', { key: login.body.token, method: 'POST' });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ object: 'logout', revoked: true });
    expectError(await ctx.request('/manage/v1/workspaces', { key: login.body.token }), 401, 'authentication_required');
  });

  it('documents the management operations in the OpenAPI document', async () => {
    const doc = await ctx.request('/v1/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/manage/v1/marketplaces/{id}/modes/{mode}/settings'].patch.security).toEqual([
      { managementToken: [] },
      { dashboardSession: [], csrfToken: [] },
    ]);
    expect(doc.body.paths['/manage/v1/marketplaces/{id}/modes/{mode}/settings'].get.security).toEqual([{ managementToken: [] }, { dashboardSession: [] }]);
    expect(doc.body.paths['/manage/v1/signup'].post.security).toEqual([]);
    expect(doc.body.paths['/manage/v1/operator/workspaces/{id}/billing_state'].post.security).toEqual([{ operatorToken: [] }]);
  });
});
