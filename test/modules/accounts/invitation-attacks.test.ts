// Issue 21's attacks on invitations, written as the attacker's requests from the outside: each
// test is the sequence a stranger with only a sign-up would try.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWorkspaceWithOwner } from '../../../src/modules/accounts/operations.js';
import * as passwords from '../../../src/modules/accounts/passwords.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { emailedToken, expectError, PASSWORD, uniqueEmail } from './manage-helpers.js';

// A spy around the real scrypt hashing: a wrong token must never reach it.
vi.mock('../../../src/modules/accounts/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/modules/accounts/passwords.js')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

interface Account {
  token: string;
  userId: string;
  workspaceId: string;
  email: string;
}

/** The attacker's way in: the public sign-up. */
async function signup(label: string, email = uniqueEmail(label)): Promise<Account> {
  const res = await ctx.request('/manage/v1/signup', { key: null, body: { email, password: PASSWORD, workspace_name: `${label}'s` } });
  expect(res.status, res.text).toBe(201);
  return { token: res.body.token, userId: res.body.user.id, workspaceId: res.body.workspace.id, email };
}

/** Other workspaces' owners, provisioned below the API (so sign-up's own throttle is not what is tested). */
async function owner(label: string): Promise<Account> {
  const email = uniqueEmail(label);
  const { user, workspace } = await createWorkspaceWithOwner(ctx.db, ctx.services.clock, { email, password: PASSWORD, workspaceName: `${label}'s` });
  const login = await ctx.request('/manage/v1/login', { key: null, body: { email, password: PASSWORD } });
  expect(login.status).toBe(200);
  return { token: login.body.token, userId: user.id, workspaceId: workspace.id, email };
}

/** Every string anywhere in a JSON value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value, ...value.split(/[\s#?=&/]+/)];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

describe('the inviter who tries to accept for the invitee', () => {
  it('finds nothing usable in the add-member answer or the outbox, and the invitee stays invited', async () => {
    const inviter = await signup('inviter');
    const victim = uniqueEmail('victim');
    const added = await ctx.request('/manage/v1/members', { key: inviter.token, body: { email: victim, role: 'owner' } });
    expect(added.status).toBe(201);
    expect(added.body.status).toBe('invited');
    const outbox = await ctx.request('/manage/v1/emails', { key: inviter.token });
    const candidates = [...new Set([...stringsOf(added.body), ...stringsOf(outbox.body)])].filter((s) => s.length > 0 && s.length <= 200);
    expect(candidates.some((s) => s.startsWith('inv_'))).toBe(false);
    for (const token of candidates) {
      const res = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token, password: 'chosen by the inviter' } });
      expect(res.status, token).not.toBe(200);
    }
    // Nobody can log in as the victim, and the victim is still only invited.
    expectError(await ctx.request('/manage/v1/login', { key: null, body: { email: victim, password: 'chosen by the inviter' } }), 401, 'invalid_credentials');
    const members = await ctx.request('/manage/v1/members', { key: inviter.token });
    expect(members.body.data.find((m: { email: string }) => m.email === victim)).toMatchObject({ status: 'invited' });
  });
});

describe('the squatter who signs up with someone else\'s address', () => {
  it('is listed as invited when later added, and reaches nothing of the workspace', async () => {
    const corp = await owner('corp-owner');
    const marketplace = await ctx.request('/manage/v1/marketplaces', { key: corp.token, body: { name: 'Corp market', currency: 'USD' } });
    expect(marketplace.status, marketplace.text).toBe(201);
    const squatter = await signup('squatter', uniqueEmail('cfo'));
    expect((await ctx.request('/manage/v1/workspaces', { key: squatter.token })).body.data).toHaveLength(1);

    const added = await ctx.request('/manage/v1/members', { key: corp.token, body: { email: squatter.email, role: 'admin' } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: squatter.userId, status: 'invited' });

    const login = await ctx.request('/manage/v1/login', { key: null, body: { email: squatter.email, password: PASSWORD } });
    const token = login.body.token;
    const workspaces = await ctx.request('/manage/v1/workspaces', { key: token });
    expect(workspaces.body.data.map((w: { workspace: { id: string } }) => w.workspace.id)).toEqual([squatter.workspaceId]);
    expectError(await ctx.request(`/manage/v1/members?workspace=${corp.workspaceId}`, { key: token }), 404, 'resource_missing', 'workspace');
    expectError(await ctx.request(`/manage/v1/marketplaces/${marketplace.body.id}`, { key: token }), 404, 'resource_missing', 'id');
    expectError(
      await ctx.request(`/manage/v1/members?workspace=${corp.workspaceId}`, { key: token, body: { email: uniqueEmail(), role: 'viewer' } }),
      404,
      'resource_missing',
      'workspace',
    );
    // The corp's own owner is not outnumbered by a pending owner either: the squatter cannot remove them.
    const corpMembers = await ctx.request('/manage/v1/members', { key: corp.token });
    expect(corpMembers.body.data.find((m: { id: string }) => m.id === squatter.userId)).toMatchObject({ status: 'invited' });
  });
});

describe('a client guessing invitation tokens', () => {
  it('gets 429 with Retry-After within 150 wrong tokens, and no wrong token runs scrypt', async () => {
    const hash = vi.mocked(passwords.hashPassword);
    hash.mockClear();
    const statuses: number[] = [];
    let retryAfter: unknown;
    for (let i = 0; i < 150; i++) {
      const res = await ctx.request('/manage/v1/invitations/accept', { key: null, body: { token: `inv_guess${i}`, password: PASSWORD } });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers['retry-after'];
    }
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(20);
    expect(statuses.slice(-100).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(hash).not.toHaveBeenCalled();
  });

  it('hashes the password only once the token is known good', async () => {
    // Another client address: the guesser above used up 127.0.0.1's allowance.
    const inviter = await owner('inviter2');
    const email = uniqueEmail('invitee');
    await ctx.request('/manage/v1/members', { key: inviter.token, body: { email, role: 'viewer' } });
    const hash = vi.mocked(passwords.hashPassword);
    hash.mockClear();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/manage/v1/invitations/accept',
      remoteAddress: '192.0.2.7',
      payload: { token: await emailedToken(ctx, email), password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(hash).toHaveBeenCalledTimes(1);
  });
});

describe('invitation emails and pending invitations', () => {
  it('sends at most 3 invitations to one address a day, then 429 with Retry-After', async () => {
    const email = uniqueEmail('flooded');
    for (let i = 0; i < 3; i++) {
      const inviter = await owner(`flooder${i}`);
      expect((await ctx.request('/manage/v1/members', { key: inviter.token, body: { email, role: 'viewer' } })).status).toBe(201);
    }
    const fourth = await owner('flooder3');
    const refused = await ctx.request('/manage/v1/members', { key: fourth.token, body: { email, role: 'viewer' } });
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('bounds pending invitations per workspace by MAX_PENDING_INVITATIONS: 409 limit_exceeded, param email', async () => {
    const small = await startTestApp({ env: { MAX_PENDING_INVITATIONS: '2' } });
    try {
      const login = await small.request('/manage/v1/login', { key: null, body: small.owner });
      for (let i = 0; i < 2; i++) {
        expect((await small.request('/manage/v1/members', { key: login.body.token, body: { email: uniqueEmail(), role: 'viewer' } })).status).toBe(201);
      }
      const third = await small.request('/manage/v1/members', { key: login.body.token, body: { email: uniqueEmail(), role: 'viewer' } });
      expectError(third, 409, 'limit_exceeded', 'email');
      expect(third.body.error.message).toContain('MAX_PENDING_INVITATIONS');
      const members = await small.request('/manage/v1/members', { key: login.body.token });
      expect(members.body.data).toHaveLength(3);
    } finally {
      await small.close();
    }
  });
});
