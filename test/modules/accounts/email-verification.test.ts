// Addresses are proved: sign-up emails a single-use, expiring link (#token=, hashed at rest), a
// confirm route checks it, a resend route sends a new one; both are throttled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/secrets.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { emailedToken, expectError, PASSWORD, uniqueEmail } from './manage-helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

async function signup(email: string): Promise<{ token: string; userId: string }> {
  const res = await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: 'Mine' } });
  expect(res.status, res.text).toBe(201);
  expect(res.body.user.email_verified_at).toBeNull();
  return { token: res.body.token, userId: res.body.user.id };
}

describe('email verification', () => {
  it('emails a #token link at sign-up, kept hashed and hidden from the outbox; the link proves the address once', async () => {
    const email = uniqueEmail('new');
    const me = await signup(email);
    // The unproved account uses its own workspace.
    expect((await ctx.request('/manage/v1/members', { key: me.token })).status).toBe(200);

    const token = await emailedToken(ctx, email, 'evf');
    const [stored] = await ctx.db.query<{ body_text: string }>(`SELECT body_text FROM emails WHERE subject = 'Confirm your email address' AND body_text LIKE $1`, [`%${token}%`]);
    expect(stored!.body_text).toContain(`${ctx.config.publicUrl}/dashboard/verify-email#token=${token}`);
    const outbox = await ctx.request('/manage/v1/emails', { key: me.token });
    expect(outbox.text).not.toContain(token);
    expect(outbox.body.data[0].text).toContain('[verification link, sent only to the account holder]');
    const rows = await ctx.db.query<{ token_hash: string; expires_at: Date; created_at: Date }>('SELECT token_hash, expires_at, created_at FROM email_verifications WHERE user_id = $1', [me.userId]);
    expect(rows).toEqual([expect.objectContaining({ token_hash: sha256Hex(token) })]);
    expect(rows[0]!.expires_at.getTime() - rows[0]!.created_at.getTime()).toBe(24 * 60 * 60 * 1000);

    const confirmed = await ctx.request('/manage/v1/email_verifications/confirm', { key: null, body: { token } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ object: 'email_verification', status: 'verified', user: { id: me.userId, email_verified_at: expect.any(String) } });
    expectError(await ctx.request('/manage/v1/email_verifications/confirm', { key: null, body: { token } }), 400, 'invalid_request', 'token');
    const session = await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } });
    expect(session.body.user.email_verified_at).toEqual(confirmed.body.user.email_verified_at);
    // Proved already: nothing to resend.
    expectError(await ctx.request('/manage/v1/email_verifications', { method: 'POST', key: me.token }), 409, 'invalid_state');
  });

  it('refuses an expired link', async () => {
    const email = uniqueEmail('late');
    const me = await signup(email);
    await ctx.db.query(`UPDATE email_verifications SET expires_at = created_at - interval '1 second' WHERE user_id = $1`, [me.userId]);
    const late = await ctx.request('/manage/v1/email_verifications/confirm', { key: null, body: { token: await emailedToken(ctx, email, 'evf') } });
    expectError(late, 400, 'invalid_request', 'token');
  });

  it('resends a new link, at most 3 an hour per user (429 with Retry-After)', async () => {
    const email = uniqueEmail('resend');
    const me = await signup(email);
    const first = await emailedToken(ctx, email, 'evf');
    const again = await ctx.request('/manage/v1/email_verifications', { method: 'POST', key: me.token });
    expect(again.status, again.text).toBe(202);
    expect(again.body).toMatchObject({ object: 'email_verification', status: 'sent', user: { id: me.userId, email_verified_at: null } });
    const second = await emailedToken(ctx, email, 'evf');
    expect(second).not.toBe(first);
    for (let i = 0; i < 2; i++) expect((await ctx.request('/manage/v1/email_verifications', { method: 'POST', key: me.token })).status).toBe(202);
    const refused = await ctx.request('/manage/v1/email_verifications', { method: 'POST', key: me.token });
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Either link proves the address; the other is used up with it.
    expect((await ctx.request('/manage/v1/email_verifications/confirm', { key: null, body: { token: first } })).status).toBe(200);
    expectError(await ctx.request('/manage/v1/email_verifications/confirm', { key: null, body: { token: second } }), 400, 'invalid_request', 'token');
  });

  it('throttles wrong tokens: 429 with Retry-After after 20 from one client', async () => {
    const statuses: number[] = [];
    let retryAfter: unknown;
    for (let i = 0; i < 25; i++) {
      const res = await ctx.app.inject({ method: 'POST', url: '/manage/v1/email_verifications/confirm', remoteAddress: '198.51.100.9', payload: { token: `evf_guess${i}` } });
      statuses.push(res.statusCode);
      retryAfter = res.headers['retry-after'];
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('lets an unproved account join another workspace only through its emailed invitation, which proves the address', async () => {
    const email = uniqueEmail('joiner');
    const me = await signup(email);
    const owner = await ctx.request('/manage/v1/login', { key: null, body: ctx.owner });
    const added = await ctx.request('/manage/v1/members', { key: owner.body.token, body: { email, role: 'developer' } });
    expect(added.body.status).toBe('invited');
    expect((await ctx.request('/manage/v1/workspaces', { key: me.token })).body.data).toHaveLength(1);
    const joined = await ctx.request('/manage/v1/invitations/join', { key: me.token, body: { token: await emailedToken(ctx, email, 'inv') } });
    expect(joined.status, joined.text).toBe(200);
    expect((await ctx.request('/manage/v1/workspaces', { key: me.token })).body.data).toHaveLength(2);
    const session = await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } });
    expect(session.body.user.email_verified_at).not.toBeNull();
  });

  it('cannot resend to a user in no workspace: the email has no outbox to leave from (409 invalid_state)', async () => {
    const email = uniqueEmail('leaver');
    const me = await signup(email);
    const other = uniqueEmail('co-owner');
    await ctx.request('/manage/v1/members', { key: me.token, body: { email: other, role: 'owner' } });
    const joined = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token: await emailedToken(ctx, other, 'inv'), password: PASSWORD } });
    expect(joined.status).toBe(200);
    expect((await ctx.request(`/manage/v1/members/${me.userId}`, { method: 'DELETE', key: me.token })).status).toBe(200);
    const refused = await ctx.request('/manage/v1/email_verifications', { method: 'POST', key: me.token });
    expectError(refused, 409, 'invalid_state');
    expect(refused.body.error.message).toContain('in no workspace');
  });
});
