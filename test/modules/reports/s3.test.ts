// A report's CSV on S3 storage (s3rver, as media's S3 tests): stored with one streamed PUT of known
// length, read through a presigned GET that names the file for download.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { builtReport, pairWithSeller, plant } from './helpers.js';

let server: S3rver;
let ctx: TestContext;

beforeAll(async () => {
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(tmpdir(), `s3rver-${randomBytes(4).toString('hex')}`), configureBuckets: [{ name: 'media' }] });
  const { port } = await server.run();
  ctx = await startTestApp({
    env: {
      STORAGE: 's3',
      S3_BUCKET: 'media',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await server.close();
});

describe('reports on S3', () => {
  it('stores the CSV under reports/ and links it through a presigned GET', async () => {
    const seller = 'sel_000000000000000000000000s3';
    await plant(ctx, '2026-02-01T12:00:00.000Z', { type: 'platform_fee', sourceId: 'pay_s3', paymentId: 'pay_s3', orderId: null, sellerId: seller, processorRef: null, lines: pairWithSeller(seller, 'platform_fees', 250) });
    const report = await builtReport(ctx, { type: 'balance_summary', interval_start: Date.parse('2026-02-01T00:00:00Z') / 1000, interval_end: Date.parse('2026-02-02T00:00:00Z') / 1000 });
    expect(report.file.url).toMatch(new RegExp(`/media/${ctx.marketplaceId}/test/reports/${report.id}\\.csv\\?`));
    const stored = await ctx.services.hooks.storage.inspect(`${ctx.marketplaceId}/test/reports/${report.id}.csv`, 1000);
    expect(stored?.size).toBe(report.file.size);
    const res = await fetch(report.file.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${report.id}-balance_summary.csv"`);
    expect(await res.text()).toBe(
      'account,currency,opening_balance,movements_in,movements_out,closing_balance\r\n' +
        'platform_fees,USD,0,250,0,250\r\n' +
        `seller:${seller},USD,0,0,250,-250\r\n`,
    );
    // The presigned link's signature and expiry are S3's to check (s3rver does not check signatures).
    expect(new URL(report.file.url).searchParams.get('X-Amz-Expires')).toBe('7200');
  });
});
