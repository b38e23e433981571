// /dashboard: the front end's build served with its cache headers and a strict CSP.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, fileUnder } from '../../../src/modules/dashboard/pages.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
let dir: string;
const INDEX = '<!doctype html><title>Dashboard</title><script type="module" src="/dashboard/assets/index-abc123.js"></script>';

beforeAll(async () => {
  const parent = mkdtempSync(join(tmpdir(), 'mkt-dashboard-'));
  writeFileSync(join(parent, 'secret.txt'), 'not for the web');
  dir = join(parent, 'dist');
  mkdirSync(dir);
  ctx = await startTestApp({ env: { DASHBOARD_DIR: dir } });
});
afterAll(() => ctx.close());

function expectStrictHeaders(res: TestResponse): void {
  expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
  expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('same-origin');
  expect(res.headers['x-frame-options']).toBe('DENY');
}

describe('/dashboard', () => {
  it('answers 503 saying to build it while there is no build', async () => {
    const res = await ctx.request('/dashboard', { key: null });
    expect(res.status).toBe(503);
    expect(res.text).toContain('npm run build');
    expectStrictHeaders(res);
  });

  describe('once built', () => {
    beforeAll(() => {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), INDEX);
      writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("dashboard");');
      writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{}');
      writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    });

    it.each(['/dashboard', '/dashboard/', '/dashboard/orders/ord_123', '/dashboard/reset-password'])('serves index.html at %s, revalidated each time', async (url) => {
      const res = await ctx.request(url, { key: null });
      expect(res.status).toBe(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expectStrictHeaders(res);
    });

    it('serves hashed assets for a year, immutable, with their type', async () => {
      const js = await ctx.request('/dashboard/assets/index-abc123.js', { key: null });
      expect(js.status).toBe(200);
      expect(js.text).toBe('console.log("dashboard");');
      expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expectStrictHeaders(js);
      const css = await ctx.request('/dashboard/assets/index-abc123.css', { key: null });
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      const icon = await ctx.request('/dashboard/favicon.svg', { key: null });
      expect(icon.headers['content-type']).toBe('image/svg+xml');
      expect(icon.headers['cache-control']).toBe('no-cache');
    });

    it('answers a missing asset 404, not index.html', async () => {
      const res = await ctx.request('/dashboard/assets/index-old999.js', { key: null });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
      expectStrictHeaders(res);
    });

    it('answers HEAD', async () => {
      const res = await ctx.app.inject({ method: 'HEAD', url: '/dashboard/assets/index-abc123.js' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it.each(['/dashboard/%2e%2e/secret.txt', '/dashboard/assets/%2e%2e/%2e%2e/secret.txt', '/dashboard/assets/..%2f..%2fsecret.txt', '/dashboard/..%5csecret.txt'])(
      'never serves a file outside the build: %s',
      async (url) => {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.body).not.toContain('not for the web');
      },
    );

    it('is not in the API document', async () => {
      const doc = await ctx.request('/v1/openapi.json', { key: null });
      expect(Object.keys(doc.body.paths).filter((path) => path.startsWith('/dashboard'))).toEqual([]);
    });
  });
});

describe('fileUnder', () => {
  it('resolves plain relative names under the root only', () => {
    expect(fileUnder('/srv/dist', 'assets/a.js')).toBe('/srv/dist/assets/a.js');
    for (const bad of ['', '../x', 'assets/../../x', '/etc/passwd', 'a\\..\\b', 'a\0b', './index.html']) expect(fileUnder('/srv/dist', bad)).toBeNull();
  });
});
