import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteModule } from '../../../src/contracts/wiring.js';
import { routesWith } from '../../http/fixtures.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError } from './manage-helpers.js';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789';

// A /v1 write that exists only in this test, so read-only modes are tested apart from any module.
const echoRoute: RouteModule = (app) => {
  app.post('/test_echo', { schema: { body: Type.Object({}, { additionalProperties: false }), response: { 200: Type.Object({ ok: Type.Boolean() }) } } }, async () => ({ ok: true }));
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ env: { OPERATOR_TOKEN }, routes: routesWith({ secret: [echoRoute] }) });
});
afterAll(() => ctx.close());

const setState = (state: string, key: string | null = OPERATOR_TOKEN, workspace = ctx.workspaceId) =>
  ctx.request(`/manage/v1/operator/workspaces/${workspace}/billing_state`, { key, body: { state } });

describe('POST /manage/v1/operator/workspaces/{id}/billing_state', () => {
  it('answers 401 without the operator token or with a wrong one, 404 for an unknown workspace, 400 for an unknown state', async () => {
    expectError(await setState('suspended', null), 401, 'authentication_required');
    expectError(await setState('suspended', 'wrong-token-wrong-token'), 401, 'authentication_required');
    expectError(await setState('suspended', OPERATOR_TOKEN, 'wsp_01jd0000000000000000000000'), 404, 'resource_missing', 'id');
    expectError(await setState('closed'), 400, 'invalid_request', 'state');
  });

  it('payment_missed makes live mode read-only and leaves test mode writable', async () => {
    const res = await setState('payment_missed');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'workspace', id: ctx.workspaceId, billing_state: 'payment_missed' });
    const live = await ctx.request('/v1/marketplace', { key: ctx.keys.live.secret_key });
    expect(live.body.read_only).toEqual({ reason: 'payment_missed', message: expect.any(String) });
    expect((await ctx.request('/v1/marketplace')).body.read_only).toBeNull();
    expectError(await ctx.request('/v1/test_echo', { key: ctx.keys.live.secret_key, body: {} }), 403, 'marketplace_read_only');
    expect((await ctx.request('/v1/test_echo', { body: {} })).status).toBe(200);
  });

  it('suspended makes both modes read-only; active lifts it', async () => {
    expect((await setState('suspended')).status).toBe(200);
    for (const mode of ['test', 'live'] as const) {
      const key = ctx.keys[mode].secret_key;
      expect((await ctx.request('/v1/marketplace', { key })).body.read_only).toMatchObject({ reason: 'workspace_suspended' });
      expectError(await ctx.request('/v1/test_echo', { key, body: {} }), 403, 'marketplace_read_only');
    }
    expect((await setState('active')).status).toBe(200);
    expect((await ctx.request('/v1/test_echo', { key: ctx.keys.live.secret_key, body: {} })).status).toBe(200);
  });
});

describe('without OPERATOR_TOKEN', () => {
  it('the operator route does not exist', async () => {
    const plain = await startTestApp();
    try {
      const res = await plain.request(`/manage/v1/operator/workspaces/${plain.workspaceId}/billing_state`, { key: 'anything-at-all-here', body: { state: 'suspended' } });
      expectError(res, 404, 'resource_missing');
    } finally {
      await plain.close();
    }
  });
});
