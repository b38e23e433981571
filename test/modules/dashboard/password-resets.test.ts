import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_ROUTE_LIMITS } from '../../../src/modules/accounts/secret-throttle.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, ownerToken, PASSWORD, uniqueEmail } from '../accounts/manage-helpers.js';
import { asBrowser, logIn } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

/** The newest email to the address, as the outbox shows it and as it is sent. */
async function newestEmailTo(email: string, token: string): Promise<{ shown: string; sent: string }> {
  const list = await ctx.request('/manage/v1/emails?limit=5', { key: token });
  const shown = list.body.data.find((e: { to: string[] }) => e.to.includes(email));
  expect(shown).toBeDefined();
  const [row] = await ctx.db.query<{ body_text: string }>('SELECT body_text FROM emails WHERE id = $1', [shown.id]);
  return { shown: shown.text, sent: row!.body_text };
}

describe('password resets', () => {
  it('emails a one-hour, one-time link; using it sets the password and ends every session and token', async () => {
    const email = uniqueEmail('forgetful');
    const signup = await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: 'Forgetful' } });
    const oldToken = signup.body.token;
    expect(signup.body.user.email_verified_at).toBeNull();
    const session = await logIn(ctx, { email, password: PASSWORD });

    const asked = await ctx.request('/manage/v1/password_resets', { key: null, body: { email: email.toUpperCase() } });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ object: 'password_reset', email });

    const mail = await newestEmailTo(email, oldToken);
    const link = /(\S+\/dashboard\/reset-password#token=(pwr_[0-9A-Za-z]{40}))/.exec(mail.sent);
    expect(link).not.toBeNull();
    expect(link![1]!.startsWith(`${ctx.config.publicUrl}/dashboard/reset-password#token=`)).toBe(true);
    // The outbox, which every member reads, shows the email without the link.
    expect(mail.shown).not.toContain(link![2]);

    const weak = await ctx.request('/manage/v1/password_resets/confirm', { key: null, body: { token: link![2], password: 'short' } });
    expectError(weak, 400, 'invalid_request', 'password');
    const done = await ctx.request('/manage/v1/password_resets/confirm', { key: null, body: { token: link![2], password: 'a brand new password' } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ user: expect.objectContaining({ object: 'user', email }) });
    // The link reached only the mailbox: the address is proved, as by its verification link.
    expect(done.body.user.email_verified_at).toEqual(expect.any(String));

    expectError(await asBrowser(ctx, session, '/manage/v1/session'), 401, 'authentication_required');
    expectError(await ctx.request('/manage/v1/workspaces', { key: oldToken }), 401, 'authentication_required');
    expectError(await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } }), 401, 'invalid_credentials');
    expect((await ctx.request('/manage/v1/login', { key: null, body: { email, password: 'a brand new password' } })).status).toBe(200);

    const again = await ctx.request('/manage/v1/password_resets/confirm', { key: null, body: { token: link![2], password: 'yet another password' } });
    expectError(again, 400, 'invalid_request', 'token');
  });

  it('answers an unknown email the same, and sends nothing', async () => {
    const owner = await ownerToken(ctx);
    const before = await ctx.db.query<{ count: number }>('SELECT count(*)::int AS count FROM emails');
    const res = await ctx.request('/manage/v1/password_resets', { key: null, body: { email: 'nobody-here@example.com' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ object: 'password_reset', email: 'nobody-here@example.com' });
    const after = await ctx.db.query<{ count: number }>('SELECT count(*)::int AS count FROM emails');
    expect(after[0]!.count).toBe(before[0]!.count);
    expect((await ctx.request('/manage/v1/emails', { key: owner })).status).toBe(200);
  });

  it('refuses an unknown or expired token with 400 param token', async () => {
    expectError(await ctx.request('/manage/v1/password_resets/confirm', { key: null, body: { token: 'pwr_nope', password: 'long enough password' } }), 400, 'invalid_request', 'token');
    await ctx.request('/manage/v1/password_resets', { key: null, body: { email: ctx.owner.email } });
    const owner = await ownerToken(ctx);
    const link = /#token=(pwr_[0-9A-Za-z]{40})/.exec((await newestEmailTo(ctx.owner.email, owner)).sent)!;
    await ctx.db.query(`UPDATE password_resets SET expires_at = now() - interval '1 second'`);
    const expired = await ctx.request('/manage/v1/password_resets/confirm', { key: null, body: { token: link[1], password: 'long enough password' } });
    expectError(expired, 400, 'invalid_request', 'token');
    expect((await ctx.request('/manage/v1/login', { key: null, body: ctx.owner })).status).toBe(200);
  });

  it('is throttled: 3 requests for one email in an hour, then 429 with Retry-After', async () => {
    const email = uniqueEmail('flooded');
    const { attempts } = SECRET_ROUTE_LIMITS.password_reset_request.target;
    expect(attempts).toBe(3);
    for (let i = 0; i < attempts; i++) expect((await ctx.request('/manage/v1/password_resets', { key: null, body: { email } })).status).toBe(202);
    const refused = await ctx.request('/manage/v1/password_resets', { key: null, body: { email } });
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
