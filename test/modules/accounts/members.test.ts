import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { emailedToken, expectError, memberToken, ownerToken, PASSWORD, uniqueEmail } from './manage-helpers.js';

let ctx: TestContext;
let owner: string;
beforeAll(async () => {
  ctx = await startTestApp();
  owner = await ownerToken(ctx);
});
afterAll(() => ctx.close());

describe('GET /manage/v1/members', () => {
  it('lists members, newest first', async () => {
    const res = await ctx.request('/manage/v1/members', { key: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data).toEqual([expect.objectContaining({ object: 'member', email: ctx.owner.email, role: 'owner', status: 'active' })]);
  });
});

describe('POST /manage/v1/members', () => {
  it('invites an unknown email: an invited member, the link (#token) only in the email, shown without it in the outbox', async () => {
    const email = uniqueEmail('invitee');
    const res = await ctx.request('/manage/v1/members', { key: owner, body: { email, role: 'developer' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'member', id: expect.any(String), email, role: 'developer', status: 'invited', created_at: expect.any(String) });
    const token = await emailedToken(ctx, email);
    expect(res.text).not.toContain('inv_');

    const emails = await ctx.request('/manage/v1/emails', { key: owner });
    const invite = emails.body.data[0];
    expect(invite).toMatchObject({ object: 'email', to: [email], status: 'queued', sent_at: null });
    expect(invite.text).not.toContain(token);
    const [stored] = await ctx.db.query<{ body_text: string }>('SELECT body_text FROM emails WHERE id = $1', [invite.id]);
    expect(stored!.body_text).toContain(`${ctx.config.publicUrl}/dashboard/accept-invitation#token=${token}`);
    expect(stored!.body_text).not.toContain('?token=');

    // An invited user cannot log in until they choose a password.
    expectError(await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } }), 401, 'invalid_credentials');
    const accepted = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token, password: PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ email, email_verified_at: expect.any(String) });
    expect((await ctx.request('/manage/v1/members', { key: accepted.body.token })).status).toBe(200);
    expect((await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } })).status).toBe(200);
    const again = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token, password: 'another password' } });
    expectError(again, 400, 'invalid_request', 'token');
    const list = await ctx.request('/manage/v1/members', { key: owner });
    expect(list.body.data[0]).toMatchObject({ email, status: 'active' });
  });

  it('invites an existing user too: pending until they accept signed in, through the emailed link', async () => {
    const other = await ctx.request('/manage/v1/signup', { key: null, body: { email: uniqueEmail('existing'), password: PASSWORD, workspace_name: 'Theirs' } });
    const email = other.body.user.email;
    const res = await ctx.request('/manage/v1/members', { key: owner, body: { email: email.toUpperCase(), role: 'viewer' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: other.body.user.id, role: 'viewer', status: 'invited' });
    const emails = await ctx.request('/manage/v1/emails?limit=1', { key: owner });
    expect(emails.body.data[0]).toMatchObject({ to: [email], subject: 'You are invited to Test workspace' });
    expectError(await ctx.request('/manage/v1/members', { key: owner, body: { email, role: 'admin' } }), 409, 'resource_exists', 'email');

    const token = await emailedToken(ctx, email);
    // The link alone sets no password of an existing account.
    const withPassword = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token, password: 'the inviter chose this' } });
    expectError(withPassword, 400, 'invalid_request', 'token');
    // Signed in as someone else, the link is refused.
    expectError(await ctx.request('/manage/v1/invitations/join', { key: owner, body: { token } }), 400, 'invalid_request', 'token');
    const joined = await ctx.request('/manage/v1/invitations/join', { key: other.body.token, body: { token } });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toMatchObject({ object: 'workspace_membership', role: 'viewer', workspace: { name: 'Test workspace' } });
    const list = await ctx.request('/manage/v1/members', { key: owner });
    expect(list.body.data.find((m: { email: string }) => m.email === email)).toMatchObject({ status: 'active' });
    expectError(await ctx.request('/manage/v1/invitations/join', { key: other.body.token, body: { token } }), 400, 'invalid_request', 'token');
    const me = await ctx.request('/manage/v1/workspaces', { key: other.body.token });
    expect(me.body.data).toHaveLength(2);
  });

  it.each([
    [{ email: 'nope', role: 'viewer' }, 'email'],
    [{ email: uniqueEmail(), role: 'superuser' }, 'role'],
    [{ email: uniqueEmail() }, 'role'],
  ])('answers 400 for %j', async (body, param) => {
    expectError(await ctx.request('/manage/v1/members', { key: owner, body }), 400, 'invalid_request', param);
  });

  it('refuses an unknown or expired invitation', async () => {
    const email = uniqueEmail('late');
    const added = await ctx.request('/manage/v1/members', { key: owner, body: { email, role: 'viewer' } });
    await ctx.db.query(`UPDATE invitations SET expires_at = created_at - interval '1 second' WHERE user_id = $1`, [added.body.id]);
    const late = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token: await emailedToken(ctx, email), password: PASSWORD } });
    expectError(late, 400, 'invalid_request', 'token');
    expectError(await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token: 'inv_unknown', password: PASSWORD } }), 400, 'invalid_request', 'token');
    expectError(await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token: 'inv_x', password: 'short' } }), 400, 'invalid_request', 'password');
  });

  it('lets admins add members but not owners; developers and viewers add nobody', async () => {
    const admin = await memberToken(ctx, owner, 'admin');
    const developer = await memberToken(ctx, owner, 'developer');
    expect((await ctx.request('/manage/v1/members', { key: admin.token, body: { email: uniqueEmail(), role: 'admin' } })).status).toBe(201);
    expectError(await ctx.request('/manage/v1/members', { key: admin.token, body: { email: uniqueEmail(), role: 'owner' } }), 403, 'permission_denied');
    expectError(await ctx.request('/manage/v1/members', { key: developer.token, body: { email: uniqueEmail(), role: 'viewer' } }), 403, 'permission_denied');
  });
});

describe('DELETE /manage/v1/members {email} (removal by email)', () => {
  it('removes the member with that email, case-insensitively; an email that is not a member is 404 param email', async () => {
    const viewer = await memberToken(ctx, owner, 'viewer');
    const removed = await ctx.request('/manage/v1/members', { method: 'DELETE', key: owner, body: { email: viewer.email.toUpperCase() } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ object: 'member', id: viewer.userId, email: viewer.email, role: 'viewer' });
    expectError(await ctx.request('/manage/v1/members', { key: viewer.token }), 404, 'resource_missing', 'workspace');
    expectError(
      await ctx.request('/manage/v1/members', { method: 'DELETE', key: owner, body: { email: viewer.email } }),
      404,
      'resource_missing',
      'email',
    );
    expectError(await ctx.request('/manage/v1/members', { method: 'DELETE', key: owner, body: {} }), 400, 'invalid_request', 'email');
  });

  it('follows the same rules as removal by id: developers remove nobody else', async () => {
    const admin = await memberToken(ctx, owner, 'admin');
    const developer = await memberToken(ctx, owner, 'developer');
    expectError(
      await ctx.request('/manage/v1/members', { method: 'DELETE', key: developer.token, body: { email: admin.email } }),
      403,
      'permission_denied',
    );
  });
});

describe('DELETE /manage/v1/members/{user_id}', () => {
  it('removes a member, whose token then sees no workspace', async () => {
    const viewer = await memberToken(ctx, owner, 'viewer');
    const removed = await ctx.request(`/manage/v1/members/${viewer.userId}`, { method: 'DELETE', key: owner });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: viewer.userId, role: 'viewer' });
    expectError(await ctx.request('/manage/v1/members', { key: viewer.token }), 404, 'resource_missing', 'workspace');
    expectError(await ctx.request(`/manage/v1/members/${viewer.userId}`, { method: 'DELETE', key: owner }), 404, 'resource_missing', 'user_id');
  });

  it('withdraws the invitation of a removed invited member', async () => {
    const email = uniqueEmail('withdrawn');
    const added = await ctx.request('/manage/v1/members', { key: owner, body: { email, role: 'viewer' } });
    await ctx.request(`/manage/v1/members/${added.body.id}`, { method: 'DELETE', key: owner });
    const accept = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token: await emailedToken(ctx, email), password: PASSWORD } });
    expectError(accept, 400, 'invalid_request', 'token');
  });

  it('keeps the last owner, lets owners go when another remains, and keeps owners from admins', async () => {
    const me = await ctx.request('/manage/v1/members', { key: owner });
    const ownerId = me.body.data.find((m: { id: string; email: string }) => m.email === ctx.owner.email).id;
    expectError(await ctx.request(`/manage/v1/members/${ownerId}`, { method: 'DELETE', key: owner }), 409, 'invalid_state');

    const admin = await memberToken(ctx, owner, 'admin');
    const developer = await memberToken(ctx, owner, 'developer');
    expectError(await ctx.request(`/manage/v1/members/${ownerId}`, { method: 'DELETE', key: admin.token }), 403, 'permission_denied');
    expectError(await ctx.request(`/manage/v1/members/${admin.userId}`, { method: 'DELETE', key: developer.token }), 403, 'permission_denied');
    // Anyone may leave.
    expect((await ctx.request(`/manage/v1/members/${developer.userId}`, { method: 'DELETE', key: developer.token })).status).toBe(200);

    const second = await memberToken(ctx, owner, 'owner');
    expect((await ctx.request(`/manage/v1/members/${ownerId}`, { method: 'DELETE', key: second.token })).status).toBe(200);
    expectError(await ctx.request(`/manage/v1/members/${second.userId}`, { method: 'DELETE', key: second.token }), 409, 'invalid_state');
  });
});

