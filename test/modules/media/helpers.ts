// Media test steps over HTTP: start an upload, PUT the bytes to the local store, complete, read.
import { expect } from 'vitest';
import { join } from 'node:path';
import { runDueJobs } from '../../../src/workers/engine.js';
import { mediaFileDeleteJob } from '../../../src/modules/media/removal.js';
import type { Json } from '../../helpers/factories.js';
import type { TestContext, TestResponse } from '../../helpers/harness.js';

export function expectError(res: TestResponse, status: number, code: string, param?: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }, res.text).toEqual({ status, code, param });
}

export function startUpload(ctx: TestContext, listingId: string, body: Record<string, unknown>): Promise<TestResponse> {
  return ctx.request(`/v1/listings/${listingId}/media`, { method: 'POST', body });
}

/** A started upload (201 asserted). */
export async function startedUpload(ctx: TestContext, listingId: string, contentType: string, size: number, position?: number): Promise<Json> {
  const res = await startUpload(ctx, listingId, { content_type: contentType, size_bytes: size, ...(position === undefined ? {} : { position }) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The path of an absolute address the service handed out (PUBLIC_URL is not where the test app listens). */
export const pathOf = (url: string) => new URL(url).pathname;

export async function putFile(ctx: TestContext, uploadUrl: string, bytes: Buffer, contentType: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method: 'PUT', url: pathOf(uploadUrl), headers: { 'content-type': contentType, ...headers }, payload: bytes });
  return { status: res.statusCode, headers: res.headers, body: res.body === '' ? undefined : (JSON.parse(res.body) as Json), text: res.body };
}

export function complete(ctx: TestContext, mediaId: string): Promise<TestResponse> {
  return ctx.request(`/v1/media/${mediaId}/complete`, { method: 'POST' });
}

/** Start, PUT and complete: a ready media. */
export async function readyMedia(ctx: TestContext, listingId: string, bytes: Buffer, contentType: string, position?: number): Promise<Json> {
  const upload = await startedUpload(ctx, listingId, contentType, bytes.length, position);
  const put = await putFile(ctx, upload.upload_url, bytes, contentType);
  expect(put.status, put.text).toBe(200);
  const done = await complete(ctx, upload.media.id);
  expect(done.status, done.text).toBe(200);
  return done.body;
}

export async function getFile(ctx: TestContext, url: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method: 'GET', url: pathOf(url), headers });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, text: res.body };
}

/** Where the local store keeps a media's file. */
export function storedPath(ctx: TestContext, listingId: string, mediaId: string): string {
  return join(ctx.config.dataDir, 'media', ctx.marketplaceId, 'test', listingId, mediaId);
}

/** Runs the queued file deletions (the worker's job) now. */
export function runFileDeletions(ctx: TestContext) {
  return runDueJobs(ctx.services, mediaFileDeleteJob);
}
