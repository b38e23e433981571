// Bounds per person and per workspace (issue 33, item 4), written as the hostile account's
// requests: one free sign-up makes workspaces, and one workspace makes marketplaces, until refused.
// The settings are low here (4 of each) so the file runs quickly; the default figures are
// docs/configuration.md's. Each refusal is 409 limit_exceeded in the error envelope naming the
// limit and its setting; what was made stays and works; creates at the last free slot at once:
// one wins (the user's or the workspace's row is locked before counting).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../helpers/harness.js';
import { ownerToken, PASSWORD, uniqueEmail } from '../modules/accounts/manage-helpers.js';

const LIMIT = 4;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ env: { MAX_WORKSPACES_PER_USER: String(LIMIT), MAX_MARKETPLACES_PER_WORKSPACE: String(LIMIT) } });
});
afterAll(() => ctx.close());

function expectLimit(res: TestResponse, setting: string) {
  expect({ status: res.status, code: res.body?.error?.code }, res.text).toEqual({ status: 409, code: 'limit_exceeded' });
  expect(res.body.error.message).toContain(setting);
  expect(res.body.error.message).toContain(String(LIMIT));
  expect(res.body.error.request_id).toMatch(/^req_/);
}

const statuses = (responses: TestResponse[]) => responses.map((r) => r.status).sort();

async function signUp(): Promise<string> {
  const res = await ctx.request('/manage/v1/signup', { key: null, body: { email: uniqueEmail('hostile'), password: PASSWORD, workspace_name: 'First' } });
  expect(res.status, res.text).toBe(201);
  return res.body.token;
}

describe('workspaces per account (MAX_WORKSPACES_PER_USER)', () => {
  const create = (token: string, name: string) => ctx.request('/manage/v1/workspaces', { key: token, body: { name } });

  it('refuses the one past the bound; the workspaces made stay; another account is not touched', async () => {
    const token = await signUp();
    // Sign-up made the first.
    for (let i = 2; i <= LIMIT; i++) expect((await create(token, `ws ${i}`)).status).toBe(201);
    expectLimit(await create(token, 'one too many'), 'MAX_WORKSPACES_PER_USER');
    expectLimit(await create(token, 'and again'), 'MAX_WORKSPACES_PER_USER');
    const list = await ctx.request('/manage/v1/workspaces', { key: token });
    expect(list.body.data.map((m: Json) => m.workspace.name).sort()).toEqual(['First', 'ws 2', 'ws 3', 'ws 4']);
    // Each workspace made still works: a marketplace in the last one.
    const last = list.body.data.find((m: Json) => m.workspace.name === `ws ${LIMIT}`).workspace.id;
    const market = await ctx.request(`/manage/v1/marketplaces?workspace=${last}`, { key: token, body: { name: 'Shop', currency: 'EUR' } });
    expect(market.status, market.text).toBe(201);
    expect((await create(await signUp(), 'a neighbour')).status).toBe(201);
  });

  it('several creates at the last free slot at once: one 201, the others 409', async () => {
    const token = await signUp();
    for (let i = 2; i < LIMIT; i++) expect((await create(token, `ws ${i}`)).status).toBe(201);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((name) => create(token, name)));
    expect(statuses(results)).toEqual([201, 409, 409, 409]);
    expect((await ctx.request('/manage/v1/workspaces', { key: token })).body.data).toHaveLength(LIMIT);
  });
});

describe('marketplaces per workspace (MAX_MARKETPLACES_PER_WORKSPACE)', () => {
  it('refuses the one past the bound, at once or one by one; the marketplaces made stay and their keys work', async () => {
    const token = await ownerToken(ctx);
    const path = `/manage/v1/marketplaces?workspace=${ctx.workspaceId}`;
    const create = (name: string) => ctx.request(path, { key: token, body: { name, currency: 'USD' } });
    // The harness made the first.
    const made: Json[] = [];
    for (let i = 2; i < LIMIT; i++) {
      const res = await create(`market ${i}`);
      expect(res.status, res.text).toBe(201);
      made.push(res.body);
    }
    const results = await Promise.all(['a', 'b', 'c'].map(create));
    expect(statuses(results)).toEqual([201, 409, 409]);
    expectLimit(results.find((r) => r.status === 409)!, 'MAX_MARKETPLACES_PER_WORKSPACE');
    expectLimit(await create('one too many'), 'MAX_MARKETPLACES_PER_WORKSPACE');

    const list = await ctx.request(`${path}&limit=100`, { key: token });
    expect(list.body.data).toHaveLength(LIMIT);
    for (const one of made) {
      expect((await ctx.request('/v1/sellers', { key: one.api_keys.test.secret_key })).status).toBe(200);
    }
    const modes = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM marketplace_modes m JOIN marketplaces k ON k.id = m.marketplace_id WHERE k.workspace_id = $1', [ctx.workspaceId]);
    expect(Number(modes[0]!.n)).toBe(LIMIT * 2);
  });
});
