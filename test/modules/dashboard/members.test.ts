// Changing roles and creating workspaces: what the dashboard's members and workspaces pages use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, memberToken, ownerToken } from '../accounts/manage-helpers.js';
import { asBrowser, logIn } from './helpers.js';

let ctx: TestContext;
let owner: string;
beforeAll(async () => {
  ctx = await startTestApp();
  owner = await ownerToken(ctx);
});
afterAll(() => ctx.close());

const patchRole = (token: string, userId: string, role: string) =>
  ctx.request(`/manage/v1/members/${userId}`, { key: token, method: 'PATCH', body: { role } });

describe('PATCH /manage/v1/members/{user_id}', () => {
  it('changes a role: admins manage non-owners, only owners make or unmake owners', async () => {
    const admin = await memberToken(ctx, owner, 'admin');
    const dev = await memberToken(ctx, owner, 'developer');
    const res = await patchRole(admin.token, dev.userId, 'viewer');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: dev.userId, role: 'viewer' });
    const members = await ctx.request('/manage/v1/members', { key: owner });
    expect(members.body.data.find((m: { id: string }) => m.id === dev.userId).role).toBe('viewer');

    expectError(await patchRole(admin.token, dev.userId, 'owner'), 403, 'permission_denied');
    expectError(await patchRole(admin.token, admin.userId, 'owner'), 403, 'permission_denied');
    expectError(await patchRole(dev.token, admin.userId, 'viewer'), 403, 'permission_denied');
    expect((await patchRole(owner, dev.userId, 'owner')).body.role).toBe('owner');
    expectError(await patchRole(admin.token, dev.userId, 'admin'), 403, 'permission_denied');
    expect((await patchRole(dev.token, dev.userId, 'developer')).body.role).toBe('developer');
  });

  it('keeps the last owner', async () => {
    const [me] = await ctx.db.query<{ user_id: string }>(
      `SELECT user_id FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'`,
      [ctx.workspaceId],
    );
    expectError(await patchRole(owner, me!.user_id, 'admin'), 409, 'invalid_state');
  });

  it('answers a user who is not a member as missing, and checks the role', async () => {
    expectError(await patchRole(owner, 'usr_nobody', 'viewer'), 404, 'resource_missing', 'user_id');
    const dev = await memberToken(ctx, owner, 'developer');
    expectError(await patchRole(owner, dev.userId, 'superuser'), 400, 'invalid_request', 'role');
  });

  it('works from the dashboard session with its CSRF token', async () => {
    const dev = await memberToken(ctx, owner, 'developer');
    const session = await logIn(ctx, ctx.owner);
    const url = `/manage/v1/members/${dev.userId}`;
    expectError(await asBrowser(ctx, session, url, { method: 'PATCH', body: { role: 'admin' }, csrf: false }), 403, 'csrf_token_invalid', 'X-CSRF-Token');
    expect((await asBrowser(ctx, session, url, { method: 'PATCH', body: { role: 'admin' } })).body.role).toBe('admin');
  });
});

describe('POST /manage/v1/workspaces', () => {
  it('creates a workspace owned by its creator', async () => {
    const res = await ctx.request('/manage/v1/workspaces', { key: owner, body: { name: '  Second shop ' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'workspace', name: 'Second shop', billing_state: 'active' });
    const mine = await ctx.request('/manage/v1/workspaces', { key: owner });
    expect(mine.body.data).toContainEqual(expect.objectContaining({ workspace: expect.objectContaining({ id: res.body.id }), role: 'owner' }));
    expectError(await ctx.request('/manage/v1/workspaces', { key: owner, body: { name: '   ' } }), 400, 'invalid_request', 'name');
    // Now a member of two workspaces, the owner names one.
    expectError(await ctx.request('/manage/v1/members', { key: owner }), 400, 'invalid_request', 'workspace');
    expect((await ctx.request(`/manage/v1/members?workspace=${res.body.id}`, { key: owner })).status).toBe(200);
  });

  it('is refused with SIGNUP=closed', async () => {
    const closed = await startTestApp({ env: { SIGNUP: 'closed' } });
    try {
      const token = await ownerToken(closed);
      expectError(await closed.request('/manage/v1/workspaces', { key: token, body: { name: 'More' } }), 403, 'signup_closed');
    } finally {
      await closed.close();
    }
  });
});
