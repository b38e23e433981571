// Media over HTTP on the local store: each content type with real bytes, the served bytes, the
// listing's media array, every refusal, expiry on the test clock, and deletion of files.
import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListing, createPublishedListing, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { GIF, IMAGES, JPEG, png } from './images.js';
import { complete, expectError, getFile, pathOf, putFile, readyMedia, runFileDeletions, startedUpload, startUpload, storedPath } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const advance = async (seconds: number) => {
  const res = await ctx.request('/v1/test_helpers/clock/advance', { method: 'POST', body: { seconds } });
  expect(res.status, res.text).toBe(200);
};

describe('upload, complete and serve', () => {
  for (const [contentType, bytes] of Object.entries(IMAGES)) {
    it(`takes a real ${contentType} file and serves the same bytes`, async () => {
      const listing = await createListing(ctx);
      const upload = await startedUpload(ctx, listing.id, contentType, bytes.length);
      expect(upload.media).toMatchObject({ object: 'media', listing: listing.id, status: 'pending', content_type: contentType, size_bytes: bytes.length, position: 0, url: null, url_expires_at: null });
      expect(upload.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/uploads\//);
      const put = await putFile(ctx, upload.upload_url, bytes, contentType);
      expect(put.status, put.text).toBe(200);
      expect(put.headers.etag).toBe(`"${upload.media.id}"`);

      const done = await complete(ctx, upload.media.id);
      expect(done.status, done.text).toBe(200);
      expect(done.body).toMatchObject({ id: upload.media.id, status: 'ready' });
      expect(done.body.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/media\//);

      const file = await getFile(ctx, done.body.url);
      expect(file.status).toBe(200);
      expect(Buffer.compare(file.raw, bytes)).toBe(0);
      expect(file.headers['content-type']).toBe(contentType);
      expect(file.headers['content-length']).toBe(String(bytes.length));
      expect(file.headers.etag).toBe(`"${upload.media.id}"`);
      expect(file.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/);
      expect((await storedEvents(ctx, upload.media.id)).map((e) => e.type)).toEqual(['media.ready']);
    });
  }

  it('replays a start of upload sent again with its Idempotency-Key', async () => {
    const listing = await createListing(ctx);
    const send = () =>
      ctx.request(`/v1/listings/${listing.id}/media`, {
        method: 'POST',
        body: { content_type: 'image/gif', size_bytes: GIF.length },
        headers: { 'idempotency-key': `media-${listing.id}` },
      });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ctx.request(`/v1/listings/${listing.id}/media`)).body.data).toHaveLength(1);
  });

  it('answers a publishable key 403 on the media operations', async () => {
    const listing = await createListing(ctx);
    const res = await ctx.request(`/v1/listings/${listing.id}/media`, { key: ctx.keys.test.publishable_key });
    expectError(res, 403, 'secret_key_required');
  });

  it('keeps the file under {marketplace}/{mode}/{listing}/{media}', async () => {
    const listing = await createListing(ctx);
    const media = await readyMedia(ctx, listing.id, GIF, 'image/gif');
    expect(existsSync(storedPath(ctx, listing.id, media.id))).toBe(true);
  });

  it("shows ready media in the listing's media array by position, then age; the list includes pending", async () => {
    const listing = await createPublishedListing(ctx);
    const second = await readyMedia(ctx, listing.id, GIF, 'image/gif', 2);
    const firstOld = await readyMedia(ctx, listing.id, JPEG, 'image/jpeg', 1);
    const firstNew = await readyMedia(ctx, listing.id, GIF, 'image/gif', 1);
    const pending = await startedUpload(ctx, listing.id, 'image/png', 10);

    const retrieved = await ctx.request(`/v1/listings/${listing.id}`);
    expect(retrieved.body.media.map((m: { id: string }) => m.id)).toEqual([firstOld.id, firstNew.id, second.id]);
    expect(retrieved.body.media[0]).toMatchObject({ object: 'media', status: 'ready', url: expect.any(String) });
    const publicView = await ctx.request(`/v1/listings/${listing.id}`, { key: ctx.keys.test.publishable_key });
    expect(publicView.body.media).toHaveLength(3);
    const listed = await ctx.request(`/v1/listings?seller=${listing.seller}`);
    expect(listed.body.data[0].media).toHaveLength(3);

    const media = await ctx.request(`/v1/listings/${listing.id}/media`);
    expect(media.status).toBe(200);
    expect(media.body.data.map((m: { id: string }) => m.id)).toEqual([pending.media.id, firstNew.id, firstOld.id, second.id]);
    const page = await ctx.request(`/v1/listings/${listing.id}/media?limit=2`);
    expect(page.body).toMatchObject({ has_more: true, next_cursor: firstNew.id });

    // The listing's events carry its media too.
    const unpublished = await ctx.request(`/v1/listings/${listing.id}/unpublish`, { method: 'POST' });
    expect(unpublished.body.media).toHaveLength(3);
    const events = await storedEvents(ctx, listing.id);
    expect(events.at(-1)!.data.object.media).toHaveLength(3);
  });

  it('gives the same url all through an hour, and a new one after it', async () => {
    const listing = await createListing(ctx);
    const media = await readyMedia(ctx, listing.id, GIF, 'image/gif');
    const again = await ctx.request(`/v1/listings/${listing.id}/media`);
    expect(again.body.data[0].url).toBe(media.url);
    const expiresAt = Date.parse(media.url_expires_at);
    expect(expiresAt % 3_600_000).toBe(0);
    const now = Date.parse((await ctx.request('/v1/test_helpers/clock')).body.now);
    expect(expiresAt - now).toBeGreaterThanOrEqual(3_600_000);
    expect(expiresAt - now).toBeLessThanOrEqual(7_200_000);

    await advance(2 * 3600);
    expectError(await getFileAsResponse(media.url), 403, 'url_expired');
    const fresh = await ctx.request(`/v1/listings/${listing.id}/media`);
    expect(fresh.body.data[0].url).not.toBe(media.url);
    expect((await getFile(ctx, fresh.body.data[0].url)).status).toBe(200);
  });
});

async function getFileAsResponse(url: string) {
  const res = await getFile(ctx, url);
  return { status: res.status, body: JSON.parse(res.text), headers: res.headers, text: res.text };
}

describe('ranges and validators', () => {
  let media: { id: string; url: string };
  const bytes = png(20, 20, true);
  beforeAll(async () => {
    const listing = await createListing(ctx);
    media = await readyMedia(ctx, listing.id, bytes, 'image/png');
  });

  it('answers a byte range with 206 and Content-Range', async () => {
    const res = await getFile(ctx, media.url, { range: 'bytes=0-9' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-9/${bytes.length}`);
    expect(res.headers['content-length']).toBe('10');
    expect(Buffer.compare(res.raw, bytes.subarray(0, 10))).toBe(0);
  });

  it('answers open and suffix ranges', async () => {
    const tail = await getFile(ctx, media.url, { range: 'bytes=-5' });
    expect(tail.status).toBe(206);
    expect(Buffer.compare(tail.raw, bytes.subarray(bytes.length - 5))).toBe(0);
    const from = await getFile(ctx, media.url, { range: `bytes=${bytes.length - 3}-` });
    expect(Buffer.compare(from.raw, bytes.subarray(bytes.length - 3))).toBe(0);
  });

  it('answers 416 to a range past the end, and the whole file to several ranges', async () => {
    const past = await getFile(ctx, media.url, { range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    const several = await getFile(ctx, media.url, { range: 'bytes=0-1,4-5' });
    expect(several.status).toBe(200);
    expect(several.raw.length).toBe(bytes.length);
  });

  it('answers 304 to If-None-Match with its ETag', async () => {
    const res = await getFile(ctx, media.url, { 'if-none-match': `"${media.id}"` });
    expect(res.status).toBe(304);
    expect(res.raw.length).toBe(0);
  });
});

describe('browsers', () => {
  it('lets a page of any origin PUT the file and read it (CORS)', async () => {
    const listing = await createListing(ctx);
    const upload = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: pathOf(upload.upload_url),
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'PUT, OPTIONS', 'access-control-allow-headers': 'Content-Type' });
    const put = await putFile(ctx, upload.upload_url, GIF, 'image/gif', { origin: 'https://shop.example' });
    expect(put.headers['access-control-allow-origin']).toBe('*');
    const media = (await complete(ctx, upload.media.id)).body;
    expect((await getFile(ctx, media.url, { origin: 'https://shop.example' })).headers['access-control-allow-origin']).toBe('*');
  });
});

describe('refusals', () => {
  it('refuses a bad declaration', async () => {
    const listing = await createListing(ctx);
    expectError(await startUpload(ctx, listing.id, { content_type: 'image/svg+xml', size_bytes: 10 }), 400, 'invalid_request', 'content_type');
    expectError(await startUpload(ctx, listing.id, { content_type: 'image/png', size_bytes: 0 }), 400, 'invalid_request', 'size_bytes');
    expectError(await startUpload(ctx, listing.id, { content_type: 'image/png', size_bytes: 10_485_761 }), 400, 'invalid_request', 'size_bytes');
    expectError(await startUpload(ctx, listing.id, { content_type: 'image/png', size_bytes: '10' }), 400, 'invalid_request', 'size_bytes');
    expectError(await startUpload(ctx, listing.id, { content_type: 'image/png', size_bytes: 10, position: -1 }), 400, 'invalid_request', 'position');
    expectError(await startUpload(ctx, listing.id, { size_bytes: 10 }), 400, 'invalid_request', 'content_type');
    expect((await startUpload(ctx, listing.id, { content_type: 'image/png', size_bytes: 10_485_760 })).status).toBe(201);
  });

  it('answers 404 for an unknown listing or media, and 409 for a removed listing', async () => {
    expectError(await startUpload(ctx, 'lst_01jd0000000000000000000000', { content_type: 'image/png', size_bytes: 10 }), 404, 'resource_missing');
    expectError(await ctx.request('/v1/listings/lst_01jd0000000000000000000000/media'), 404, 'resource_missing');
    expectError(await complete(ctx, 'med_01jd0000000000000000000000'), 404, 'resource_missing');
    expectError(await ctx.request('/v1/media/med_01jd0000000000000000000000', { method: 'DELETE' }), 404, 'resource_missing');
    const listing = await createListing(ctx);
    await ctx.request(`/v1/listings/${listing.id}/remove`, { method: 'POST', body: { reason: 'Gone.' } });
    expectError(await startUpload(ctx, listing.id, { content_type: 'image/png', size_bytes: 10 }), 409, 'invalid_state');
  });

  it('refuses a PUT of another Content-Type or length, and keeps the grant for a right one', async () => {
    const listing = await createListing(ctx);
    const upload = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    expectError(await putFile(ctx, upload.upload_url, GIF, 'image/png') as never, 400, 'invalid_request', 'Content-Type');
    expectError(await putFile(ctx, upload.upload_url, Buffer.concat([GIF, GIF]), 'image/gif') as never, 400, 'invalid_request', 'Content-Length');
    expect((await putFile(ctx, upload.upload_url, GIF, 'image/gif; charset=binary')).status).toBe(200);
  });

  it('takes one upload per grant', async () => {
    const listing = await createListing(ctx);
    const upload = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    expect((await putFile(ctx, upload.upload_url, GIF, 'image/gif')).status).toBe(200);
    expectError(await putFile(ctx, upload.upload_url, GIF, 'image/gif') as never, 409, 'upload_already_received');
  });

  it('refuses an altered token, and a media link used as an upload address', async () => {
    const listing = await createListing(ctx);
    const upload = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    const altered = upload.upload_url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    expectError(await putFile(ctx, altered, GIF, 'image/gif') as never, 403, 'url_signature_invalid');
    const ready = await readyMedia(ctx, listing.id, GIF, 'image/gif');
    const asUpload = `http://127.0.0.1:8080/uploads/${pathOf(ready.url).split('/').at(-1)}`;
    expectError(await putFile(ctx, asUpload, GIF, 'image/gif') as never, 403, 'url_signature_invalid');
    expectError(await getFileAsResponse(upload.upload_url.replace('/uploads/', '/media/')), 403, 'url_signature_invalid');
  });

  it('completes only a stored file of the declared size and type; the media stays pending', async () => {
    const listing = await createListing(ctx);
    const missing = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    expectError(await complete(ctx, missing.media.id), 409, 'upload_missing');

    const wrongType = await startedUpload(ctx, listing.id, 'image/png', GIF.length);
    expect((await putFile(ctx, wrongType.upload_url, GIF, 'image/png')).status).toBe(200);
    expectError(await complete(ctx, wrongType.media.id), 409, 'upload_mismatch');

    const notAnImage = await startedUpload(ctx, listing.id, 'image/jpeg', 40);
    expect((await putFile(ctx, notAnImage.upload_url, Buffer.alloc(40, 'x'), 'image/jpeg')).status).toBe(200);
    expectError(await complete(ctx, notAnImage.media.id), 409, 'upload_mismatch');

    // A file of another size can only arrive behind the store's back (S3 servers that do not enforce length).
    const wrongSize = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    writeFileSync(storedPath(ctx, listing.id, wrongSize.media.id), Buffer.concat([GIF, Buffer.from('trailing')]));
    expectError(await complete(ctx, wrongSize.media.id), 409, 'upload_mismatch');

    const list = await ctx.request(`/v1/listings/${listing.id}/media`);
    expect(list.body.data.map((m: { status: string }) => m.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect((await storedEvents(ctx, wrongType.media.id)).map((e) => e.type)).toEqual([]);
  });

  it('refuses to complete a ready media', async () => {
    const listing = await createListing(ctx);
    const media = await readyMedia(ctx, listing.id, GIF, 'image/gif');
    expectError(await complete(ctx, media.id), 409, 'invalid_state');
  });
});

describe('expiry and deletion', () => {
  it('refuses an upload after 10 minutes of the test clock, and deletes the pending media with its file', async () => {
    const listing = await createListing(ctx);
    const late = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    const uploaded = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    expect((await putFile(ctx, uploaded.upload_url, GIF, 'image/gif')).status).toBe(200);
    const file = storedPath(ctx, listing.id, uploaded.media.id);
    expect(existsSync(file)).toBe(true);
    expect(Date.parse(late.upload_expires_at) - Date.parse(late.media.created_at)).toBe(600_000);

    await advance(599);
    expect((await ctx.request(`/v1/listings/${listing.id}/media`)).body.data).toHaveLength(2);
    await advance(1);
    expectError(await putFile(ctx, late.upload_url, GIF, 'image/gif') as never, 403, 'url_expired');
    expect((await ctx.request(`/v1/listings/${listing.id}/media`)).body.data).toHaveLength(0);
    expect((await storedEvents(ctx, uploaded.media.id)).map((e) => e.type)).toEqual(['media.deleted']);
    await runFileDeletions(ctx);
    expect(existsSync(file)).toBe(false);
    expectError(await complete(ctx, uploaded.media.id), 404, 'resource_missing');
  });

  it('deletes a media and then its file', async () => {
    const listing = await createListing(ctx);
    const media = await readyMedia(ctx, listing.id, GIF, 'image/gif');
    const res = await ctx.request(`/v1/media/${media.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: media.id, status: 'ready', url: null });
    expect((await storedEvents(ctx, media.id)).map((e) => e.type)).toEqual(['media.ready', 'media.deleted']);
    expect((await getFile(ctx, media.url)).status).toBe(404);
    await runFileDeletions(ctx);
    expect(existsSync(storedPath(ctx, listing.id, media.id))).toBe(false);
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.media).toEqual([]);
  });

  it('deletes the media and files of a removed listing', async () => {
    const listing = await createListing(ctx);
    const media = await readyMedia(ctx, listing.id, GIF, 'image/gif');
    const removed = await ctx.request(`/v1/listings/${listing.id}/remove`, { method: 'POST', body: { reason: 'Gone.' } });
    expect(removed.body.media).toEqual([]);
    expect((await storedEvents(ctx, media.id)).map((e) => e.type)).toEqual(['media.ready', 'media.deleted']);
    await runFileDeletions(ctx);
    expect(existsSync(storedPath(ctx, listing.id, media.id))).toBe(false);
  });

  it("deletes the media and files of an erased seller's listings", async () => {
    const listing = await createListing(ctx);
    const media = await readyMedia(ctx, listing.id, GIF, 'image/gif');
    const pending = await startedUpload(ctx, listing.id, 'image/gif', GIF.length);
    const erased = await ctx.request(`/v1/sellers/${listing.seller}`, { method: 'DELETE' });
    expect(erased.status, erased.text).toBe(200);
    expect((await storedEvents(ctx, media.id)).map((e) => e.type)).toEqual(['media.ready', 'media.deleted']);
    expect((await storedEvents(ctx, pending.media.id)).map((e) => e.type)).toEqual(['media.deleted']);
    await runFileDeletions(ctx);
    expect(existsSync(storedPath(ctx, listing.id, media.id))).toBe(false);
  });
});
