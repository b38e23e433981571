import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProcessorCredentials } from '../../../src/modules/marketplaces/processor-connection.js';
import { decryptSecret, encryptSecret, maskSecret, SecretDecryptionError } from '../../../src/secrets.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, memberToken, ownerToken } from '../accounts/manage-helpers.js';

let ctx: TestContext;
let owner: string;
let path: (mode: string) => string;
const LIVE_KEY = 'sk_live_51AbCdEfGhIjKlMnOpQrStUvWxYz0123456789wxyz';
const WEBHOOK_SECRET = 'whsec_AbCdEfGhIjKlMnOpQrStUvWx1234';
beforeAll(async () => {
  ctx = await startTestApp();
  owner = await ownerToken(ctx);
  path = (mode) => `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/${mode}/processor`;
});
afterAll(() => ctx.close());

describe('processor connection', () => {
  it('connects Stripe in live mode, stores the secrets encrypted and answers them masked', async () => {
    const put = await ctx.request(path('live'), { method: 'PUT', key: owner, body: { provider: 'stripe', secret_key: LIVE_KEY, webhook_secret: WEBHOOK_SECRET } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      object: 'processor_connection',
      marketplace: ctx.marketplaceId,
      mode: 'live',
      provider: 'stripe',
      secret_key: 'sk_live_…wxyz',
      webhook_secret: 'whsec_…1234',
      connect_webhook_secret: null,
    });
    const [row] = await ctx.db.query<{ secret_key_enc: string; webhook_secret_enc: string }>(
      `SELECT secret_key_enc, webhook_secret_enc FROM processor_connections WHERE marketplace_id = $1 AND mode = 'live'`,
      [ctx.marketplaceId],
    );
    expect(row!.secret_key_enc).not.toContain('AbCd');
    expect(row!.webhook_secret_enc).not.toContain('AbCd');
    const credentials = await loadProcessorCredentials(ctx.db, ctx.config.secretKey, { marketplaceId: ctx.marketplaceId, mode: 'live' });
    expect(credentials).toEqual({ provider: 'stripe', secretKey: LIVE_KEY, webhookSecret: WEBHOOK_SECRET, connectWebhookSecret: null });
    const get = await ctx.request(path('live'), { key: owner });
    expect(get.body).toEqual(put.body);
    const withConnect = await ctx.request(path('live'), {
      method: 'PUT',
      key: owner,
      body: { provider: 'stripe', secret_key: LIVE_KEY, webhook_secret: WEBHOOK_SECRET, connect_webhook_secret: 'whsec_ConnectEndpointSecret5678' },
    });
    expect(withConnect.body.connect_webhook_secret).toBe('whsec_…5678');
    expect((await loadProcessorCredentials(ctx.db, ctx.config.secretKey, { marketplaceId: ctx.marketplaceId, mode: 'live' }))).toMatchObject({ connectWebhookSecret: 'whsec_ConnectEndpointSecret5678' });
    const reset = await ctx.request(path('live'), { method: 'PUT', key: owner, body: { provider: 'stripe', secret_key: LIVE_KEY, webhook_secret: WEBHOOK_SECRET } });
    expect(reset.body.connect_webhook_secret).toBeNull();
  });

  it('refuses the simulated processor in live mode', async () => {
    expectError(await ctx.request(path('live'), { method: 'PUT', key: owner, body: { provider: 'simulated' } }), 403, 'test_mode_only', 'provider');
  });

  it.each([
    ['live', { provider: 'stripe', secret_key: 'sk_test_51AbCdEfGhIjKlMnOpQrStUv', webhook_secret: WEBHOOK_SECRET }, 'secret_key'],
    ['test', { provider: 'stripe', secret_key: LIVE_KEY, webhook_secret: WEBHOOK_SECRET }, 'secret_key'],
    ['live', { provider: 'stripe', secret_key: 'pk_live_51AbCdEfGhIjKlMnOpQrStUv', webhook_secret: WEBHOOK_SECRET }, 'secret_key'],
    ['live', { provider: 'stripe', secret_key: LIVE_KEY, webhook_secret: 'secret' }, 'webhook_secret'],
    ['live', { provider: 'stripe', webhook_secret: WEBHOOK_SECRET }, 'secret_key'],
    ['live', { provider: 'stripe', secret_key: LIVE_KEY }, 'webhook_secret'],
    ['live', { provider: 'stripe', secret_key: LIVE_KEY, webhook_secret: WEBHOOK_SECRET, connect_webhook_secret: 'nope' }, 'connect_webhook_secret'],
    ['test', { provider: 'simulated', connect_webhook_secret: WEBHOOK_SECRET }, 'connect_webhook_secret'],
    ['test', { provider: 'simulated', secret_key: 'sk_test_51AbCdEfGhIjKlMnOpQrStUv' }, 'secret_key'],
    ['test', { provider: 'paypal' }, 'provider'],
    ['test', { provider: 'stripe', secret_key: 'x'.repeat(256), webhook_secret: WEBHOOK_SECRET }, 'secret_key'],
  ])('answers 400 in %s mode for %j', async (mode, body, param) => {
    expectError(await ctx.request(path(mode), { method: 'PUT', key: owner, body }), 400, 'invalid_request', param);
  });

  it('accepts restricted keys of the mode', async () => {
    const res = await ctx.request(path('test'), {
      method: 'PUT',
      key: owner,
      body: { provider: 'stripe', secret_key: 'rk_test_51AbCdEfGhIjKlMnOpQrStUv9876', webhook_secret: WEBHOOK_SECRET },
    });
    expect(res.body).toMatchObject({ provider: 'stripe', secret_key: 'rk_test_…9876' });
    const back = await ctx.request(path('test'), { method: 'PUT', key: owner, body: { provider: 'simulated' } });
    expect(back.body).toMatchObject({ provider: 'simulated', secret_key: null, webhook_secret: null });
  });

  it('disconnects, then answers 404 for the missing connection', async () => {
    const removed = await ctx.request(path('live'), { method: 'DELETE', key: owner });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ provider: 'stripe', secret_key: 'sk_live_…wxyz', deleted: true });
    expectError(await ctx.request(path('live'), { key: owner }), 404, 'resource_missing');
    expectError(await ctx.request(path('live'), { method: 'DELETE', key: owner }), 404, 'resource_missing');
  });

  it('lets viewers read the connection but not change it', async () => {
    const viewer = await memberToken(ctx, owner, 'viewer');
    expect((await ctx.request(path('test'), { key: viewer.token })).status).toBe(200);
    expectError(await ctx.request(path('test'), { method: 'PUT', key: viewer.token, body: { provider: 'simulated' } }), 403, 'permission_denied');
    expectError(await ctx.request(path('test'), { method: 'DELETE', key: viewer.token }), 403, 'permission_denied');
  });
});

describe('secrets at rest', () => {
  const key = Buffer.alloc(32, 7);
  it('round-trips, and refuses another key, another context or altered data', () => {
    const stored = encryptSecret(key, 'whsec_hello', 'ctx');
    expect(stored).not.toBe(encryptSecret(key, 'whsec_hello', 'ctx'));
    expect(decryptSecret(key, stored, 'ctx')).toBe('whsec_hello');
    expect(() => decryptSecret(Buffer.alloc(32, 8), stored, 'ctx')).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(key, stored, 'other')).toThrow(SecretDecryptionError);
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptSecret(key, parts.join('.'), 'ctx')).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(key, 'plain text', 'ctx')).toThrow(SecretDecryptionError);
  });
  it('masks', () => {
    expect(maskSecret('sk_live_abcdefgh1234')).toBe('sk_live_…1234');
    expect(maskSecret('whsec_abcdefgh1234')).toBe('whsec_…1234');
  });
});
