// The dashboard's typed client is generated from /v1/openapi.json: its routes, headers and cookie must be there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(async () => {
  ctx = await startTestApp();
  doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
});
afterAll(() => ctx.close());

describe('the OpenAPI document', () => {
  it('documents the session, password reset, member and workspace operations with their ids', () => {
    const ids = {
      'post /manage/v1/sessions': 'createSession',
      'get /manage/v1/session': 'retrieveSession',
      'delete /manage/v1/session': 'deleteSession',
      'post /manage/v1/password_resets': 'requestPasswordReset',
      'post /manage/v1/password_resets/confirm': 'confirmPasswordReset',
      'patch /manage/v1/members/{user_id}': 'updateMember',
      'post /manage/v1/workspaces': 'createWorkspace',
    };
    for (const [route, id] of Object.entries(ids)) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method]?.operationId, route).toBe(id);
    }
    expect(doc.paths['/manage/v1/sessions'].post.security).toEqual([]);
    expect(doc.paths['/manage/v1/session'].get.security).toEqual([{ dashboardSession: [] }]);
    expect(doc.paths['/manage/v1/session'].delete.security).toEqual([{ dashboardSession: [], csrfToken: [] }]);
    expect(doc.paths['/manage/v1/password_resets'].post.responses['202']).toBeDefined();
  });

  it('names the cookie and the dashboard headers as security schemes', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      dashboardSession: { type: 'apiKey', in: 'cookie', name: 'mb_session' },
      csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
      dashboardMarketplace: { type: 'apiKey', in: 'header', name: 'Dashboard-Marketplace' },
      dashboardMode: { type: 'apiKey', in: 'header', name: 'Dashboard-Mode' },
    });
  });

  it('offers /v1 operations to the dashboard session, writes with the CSRF token', () => {
    const session = { dashboardSession: [], dashboardMarketplace: [], dashboardMode: [] };
    expect(doc.paths['/v1/sellers'].get.security).toEqual([{ secretKey: [] }, session]);
    expect(doc.paths['/v1/sellers'].post.security).toEqual([{ secretKey: [] }, { ...session, csrfToken: [] }]);
    expect(doc.paths['/v1/sellers'].post.responses['4XX'].description).toContain('`csrf_token_invalid`');
    expect(doc.paths['/v1/sellers'].post.responses['4XX'].description).toContain('`permission_denied`');
    expect(doc.paths['/v1/sellers'].get.responses['4XX'].description).not.toContain('csrf_token_invalid');
  });
});
