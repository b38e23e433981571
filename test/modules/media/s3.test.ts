// The S3 driver against a real S3-compatible server started here: s3rver (npm), path-style, its
// default credentials. s3rver checks a presigned URL's expiry but not its signed headers, so it
// takes a PUT of another Content-Type or length: the signed-headers test below checks, with the
// signature computed as S3 does, that a real S3 would refuse those; and complete catches a file of
// another size or type whatever the server took.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createListing, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { complete, expectError, runFileDeletions, startedUpload } from './helpers.js';
import { GIF, IMAGES, png } from './images.js';
import { presignedSignatureHolds } from './sigv4.js';

const SECRET = 'S3RVER';
let server: S3rver;
let ctx: TestContext;
let env: Record<string, string>;

beforeAll(async () => {
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(tmpdir(), `s3rver-${randomBytes(4).toString('hex')}`), configureBuckets: [{ name: 'media' }] });
  const { port } = await server.run();
  env = {
    STORAGE: 's3',
    S3_BUCKET: 'media',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: SECRET,
    S3_FORCE_PATH_STYLE: '1',
  };
  ctx = await startTestApp({ env });
});
afterAll(async () => {
  await ctx.close();
  await server.close();
});

const put = (url: string, body: Buffer, contentType: string) => fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
const stored = (key: string) => ctx.services.hooks.storage.inspect(key, 10);
const keyOf = (listingId: string, mediaId: string) => `${ctx.marketplaceId}/test/${listingId}/${mediaId}`;

describe('S3 storage', () => {
  for (const [contentType, bytes] of Object.entries(IMAGES)) {
    it(`takes a ${contentType} file through a presigned PUT and serves it through a presigned link`, async () => {
      const listing = await createListing(ctx);
      const upload = await startedUpload(ctx, listing.id, contentType, bytes.length);
      expect(upload.upload_url).toContain(`${env.S3_ENDPOINT}/media/${keyOf(listing.id, upload.media.id)}?`);
      const res = await put(upload.upload_url, bytes, contentType);
      expect(res.status, await res.text()).toBe(200);
      const done = await complete(ctx, upload.media.id);
      expect(done.status, done.text).toBe(200);
      expect(done.body.status).toBe('ready');
      const file = await fetch(done.body.url);
      expect(file.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await file.arrayBuffer()), bytes)).toBe(0);
    });
  }

  it('binds the presigned PUT to the declared Content-Type and Content-Length', async () => {
    const listing = await createListing(ctx);
    const upload = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    const url = new URL(upload.upload_url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect([...url.searchParams.keys()].filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
    const holds = (contentType: string, length: number) =>
      presignedSignatureHolds(upload.upload_url, 'PUT', { 'content-type': contentType, 'content-length': String(length) }, SECRET);
    expect(holds('image/gif', GIF.length)).toBe(true);
    expect(holds('image/png', GIF.length)).toBe(false);
    expect(holds('image/gif', GIF.length + 1)).toBe(false);
  });

  it('gives the same presigned link all through an hour', async () => {
    const listing = await createListing(ctx);
    const upload = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    await put(upload.upload_url, GIF, 'image/gif');
    const done = await complete(ctx, upload.media.id);
    const again = await ctx.request(`/v1/listings/${listing.id}/media`);
    expect(again.body.data[0].url).toBe(done.body.url);
    expect(new URL(done.body.url).searchParams.get('X-Amz-Expires')).toBe('7200');
    expect(Date.parse(done.body.url_expires_at) % 3_600_000).toBe(0);
  });

  it('completes only a stored file of the declared size and type', async () => {
    const listing = await createListing(ctx);
    const missing = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    expectError(await complete(ctx, missing.media.id), 409, 'upload_missing');

    // s3rver takes a body of another length; a real S3 refuses it by the signature (test above).
    const longer = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    expect((await put(longer.upload_url, Buffer.concat([GIF, GIF]), 'image/gif')).status).toBe(200);
    expectError(await complete(ctx, longer.media.id), 409, 'upload_mismatch');

    const image = png(8, 8, true);
    const wrongType = await startedUpload(ctx, listing.id, 'image/webp', image.length);
    expect((await put(wrongType.upload_url, image, 'image/webp')).status).toBe(200);
    expectError(await complete(ctx, wrongType.media.id), 409, 'upload_mismatch');
    const list = await ctx.request(`/v1/listings/${listing.id}/media`);
    expect(list.body.data.every((m: { status: string }) => m.status === 'pending')).toBe(true);
  });

  it('deletes the object of a deleted media, and of an upload never completed', async () => {
    const listing = await createListing(ctx);
    const upload = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    await put(upload.upload_url, GIF, 'image/gif');
    await complete(ctx, upload.media.id);
    const abandoned = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    await put(abandoned.upload_url, GIF, 'image/gif');
    expect(await stored(keyOf(listing.id, abandoned.media.id))).not.toBeNull();

    expect((await ctx.request(`/v1/media/${upload.media.id}`, { method: 'DELETE' })).status).toBe(200);
    const advanced = await ctx.request('/v1/test_helpers/clock/advance', { method: 'POST', body: { seconds: 601 } });
    expect(advanced.status).toBe(200);
    expect((await storedEvents(ctx, abandoned.media.id)).map((e) => e.type)).toEqual(['media.deleted']);
    await runFileDeletions(ctx);
    expect(await stored(keyOf(listing.id, upload.media.id))).toBeNull();
    expect(await stored(keyOf(listing.id, abandoned.media.id))).toBeNull();
  });

  it('answers 404 at the local store addresses', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/media/anything' });
    expect(res.statusCode).toBe(404);
  });
});

describe('S3 upload expiry', () => {
  it('lets the S3 server refuse a presigned PUT after 10 minutes of real time', async () => {
    // Presigned addresses are checked by S3 on its own (real) clock: sign an hour in the past.
    const clock = new ManualClock(Date.now() - 3_600_000);
    const past = await startTestApp({ env, clock });
    try {
      const listing = await createListing(past);
      const upload = await startedUpload(past, listing.id, 'image/gif', GIF.length);
      const res = await put(upload.upload_url, GIF, 'image/gif');
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Request has expired');
    } finally {
      await past.close();
    }
  });
});
