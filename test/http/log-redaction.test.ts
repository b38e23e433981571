// Secrets stay out of the access log (issue 33, item 6), tried as the operator reading the log
// would find them: the service writes its pino lines as in production (level info) while a media
// upload grant and link, a report link, and the simulated processor's checkout and onboarding pages
// are used; no line holds any of their secrets, and each request's line still names the route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedListing, createSeller } from '../helpers/factories.js';
import { startTestApp, type TestContext } from '../helpers/harness.js';
import { complete, getFile, putFile, startedUpload } from '../modules/media/helpers.js';
import { png } from '../modules/media/images.js';
import { builtReport, download } from '../modules/reports/helpers.js';
import { paymentHelpers } from '../modules/payments/helpers.js';
import { REDACTED, redactUrl } from '../../src/http/log-redaction.js';

const lines: string[] = [];
let ctx: TestContext;
const h = paymentHelpers(() => ctx);
beforeAll(async () => {
  ctx = await startTestApp({ logStream: { write: (line: string) => void lines.push(line) } });
});
afterAll(() => ctx.close());

/** The secret part of a capability URL: its last path segment. */
const secretOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const logged = () => lines.join('');
const urlsLogged = () => lines.map((line) => JSON.parse(line) as { req?: { url?: string } }).flatMap((line) => (line.req?.url ? [line.req.url] : []));

describe('the access log', () => {
  it('holds no secret of a used media upload grant, media link, report link, checkout page or onboarding page', async () => {
    const secrets: string[] = [];

    const seller = await createSeller(ctx);
    const listing = await createPublishedListing(ctx, { seller: seller.id });
    const bytes = png();
    const upload = await startedUpload(ctx, listing.id, 'image/png', bytes.length);
    expect((await putFile(ctx, upload.upload_url, bytes, 'image/png')).status).toBe(200);
    secrets.push(secretOf(upload.upload_url));
    const media = (await complete(ctx, upload.media.id)).body;
    const file = await getFile(ctx, media.url);
    expect(file.status).toBe(200);
    secrets.push(secretOf(media.url));

    const now = Math.floor(Date.now() / 1000);
    const report = await builtReport(ctx, { type: 'balance_summary', interval_start: now - 86_400, interval_end: now + 86_400 });
    expect((await download(ctx, report.file.url)).status).toBe(200);
    secrets.push(secretOf(report.file.url));

    await h.setSettings({ payments_enabled: true });
    const { payment } = await h.unpaid();
    const checkoutPath = new URL(payment.checkout_url).pathname;
    expect((await ctx.request(checkoutPath, { key: null })).status).toBe(200);
    const paid = await ctx.request(`${checkoutPath}/pay`, { method: 'POST', key: null, body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([200, 303]).toContain(paid.status);
    secrets.push(secretOf(payment.checkout_url));

    const link = await ctx.request(`/v1/sellers/${seller.id}/onboarding_links`, { body: { return_url: 'https://platform.example/done', refresh_url: 'https://platform.example/retry' } });
    expect(link.status, link.text).toBe(201);
    expect((await ctx.request(new URL(link.body.url).pathname, { key: null })).status).toBe(200);
    secrets.push(secretOf(link.body.url));

    // Every secret was long and random; none is in any line.
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(20);
      expect(logged()).not.toContain(secret);
    }
    // The lines still say what was asked for, with the id and without the secret.
    const urls = urlsLogged();
    expect(urls).toContain(`/media/${REDACTED}`);
    expect(urls).toContain(`/report_files/${REDACTED}`);
    expect(urls).toContain(`/simulated/checkout/${payment.id}/${REDACTED}`);
    expect(urls).toContain(`/simulated/checkout/${payment.id}/${REDACTED}/pay`);
    expect(urls).toContain(`/simulated/onboarding/${link.body.id}/${REDACTED}`);
    expect(urls.some((url) => url.startsWith('/uploads/'))).toBe(true);
    expect(urls.filter((url) => url.startsWith('/uploads/'))).toEqual([`/uploads/${REDACTED}`]);
    // API keys travel in a header, which the log does not hold.
    expect(logged()).not.toContain(ctx.keys.test.secret_key);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/media/abc.def', `/media/${REDACTED}`],
    ['/media/abc?x=1', `/media/${REDACTED}?x=1`],
    ['//media//abc', `//media//${REDACTED}`],
    ['/MEDIA/abc', `/MEDIA/${REDACTED}`],
    ['/uploads/abc', `/uploads/${REDACTED}`],
    ['/report_files/abc/', `/report_files/${REDACTED}/`],
    ['/simulated/checkout/pay_1/tok', `/simulated/checkout/pay_1/${REDACTED}`],
    ['/simulated/checkout/pay_1/tok/decline', `/simulated/checkout/pay_1/${REDACTED}/decline`],
    ['/simulated/onboarding/obl_1/tok', `/simulated/onboarding/obl_1/${REDACTED}`],
    ['/simulated/onboarding/obl_1', '/simulated/onboarding/obl_1'],
    ['/v1/media/med_1', '/v1/media/med_1'],
    ['/v1/sellers?limit=3&token=abc&X-Amz-Signature=f00&api_key=k&starting_after=sel_1', `/v1/sellers?limit=3&token=${REDACTED}&X-Amz-Signature=${REDACTED}&api_key=${REDACTED}&starting_after=sel_1`],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
