// The local driver's two addresses, outside /v1 (no API key: the signed token is the credential).
// PUT /uploads/{token}: the single-use grant of one pending media takes exactly its declared
// Content-Type and size, streamed to disk. GET /media/{token}: the file of a ready media, with
// validators, caching headers and single byte ranges. With STORAGE=s3 neither address exists.
import type { Readable } from 'node:stream';
import { DomainError, errors } from '../../errors.js';
import type { Scope } from '../../scope.js';
import type { ServiceContext } from '../../contracts/context.js';
import type { ServedFiles } from '../../contracts/storage.js';
import { selectMedia, updateMediaUploadReceived, updateMediaUploadReleased, type MediaRow } from './queries.js';

export interface UploadRequest {
  token: string;
  contentType: string | undefined;
  contentLength: string | undefined;
  body: Readable;
}

/** What GET /media/{token} sends: the headers, and the bytes (none for 304 and 416). */
export interface MediaResponse {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  body: Readable | null;
}

/** The local store, which serves these addresses; on S3 they do not exist. */
function localStore(ctx: ServiceContext): ServedFiles {
  const served = ctx.hooks.storage.served;
  if (!served) {
    throw new DomainError('resource_missing', 'Media files are kept in S3 here: uploads and links go to the addresses S3 signed.');
  }
  return served;
}

/** The media type of a Content-Type header, without parameters, lower case. */
function mediaTypeOf(header: string | undefined): string | null {
  return header?.split(';')[0]?.trim().toLowerCase() || null;
}

export async function receiveUpload(ctx: ServiceContext, upload: UploadRequest): Promise<{ etag: string }> {
  const storage = localStore(ctx);
  const { scope, id: mediaId, now } = await storage.checkToken(ctx.db, ctx.clock, 'upload', upload.token);
  const media = await ctx.db.transaction(async (tx) => {
    const row = await selectMedia(tx, scope, mediaId);
    if (!row) throw errors.missing('media', mediaId);
    if (mediaTypeOf(upload.contentType) !== row.content_type) {
      throw errors.invalidRequest(`Content-Type must be ${row.content_type}, as declared (got ${upload.contentType ?? 'none'}).`, 'Content-Type');
    }
    if (upload.contentLength !== String(row.size_bytes)) {
      throw errors.invalidRequest(
        `Content-Length must be ${row.size_bytes}, as declared (got ${upload.contentLength ?? 'none'}).`,
        'Content-Length',
      );
    }
    const taken = await updateMediaUploadReceived(tx, scope, mediaId, now);
    if (!taken) {
      throw new DomainError('upload_already_received', `The file of the media ${mediaId} was already received; an upload address is single-use.`);
    }
    return taken;
  });
  try {
    await storage.receive(media.storage_key, upload.body);
  } catch (error) {
    // The file did not arrive whole: nothing is kept, and the grant can be used again.
    await ctx.db.transaction((tx) => updateMediaUploadReleased(tx, scope, mediaId));
    throw errors.invalidRequest(`The upload did not arrive whole (${error instanceof Error ? error.message : String(error)}).`);
  }
  // Deleted while the bytes were arriving: its file-deletion job may have run already.
  if (!(await selectMedia(ctx.db, scope, mediaId))) await ctx.hooks.storage.delete(media.storage_key);
  return { etag: etagOf(media) };
}

function etagOf(media: MediaRow): string {
  // A media's file never changes once stored: its id names its bytes.
  return `"${media.id}"`;
}

export async function serveMedia(ctx: ServiceContext, text: string, request: { ifNoneMatch?: string; range?: string }): Promise<MediaResponse> {
  const storage = localStore(ctx);
  const token = await storage.checkToken(ctx.db, ctx.clock, 'media', text);
  const media = await readyMedia(ctx, token.scope, token.id);
  const size = await storage.sizeOf(media.storage_key);
  if (size === null) throw errors.missing('media', token.id);
  const etag = etagOf(media);
  const maxAge = Math.max(0, Math.floor((token.expiresAt.getTime() - token.now.getTime()) / 1000));
  const headers: Record<string, string> = {
    'content-type': media.content_type,
    etag,
    'cache-control': `private, max-age=${maxAge}, immutable`,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
  };
  if (request.ifNoneMatch !== undefined && request.ifNoneMatch.split(',').some((tag) => [etag, `W/${etag}`, '*'].includes(tag.trim()))) {
    return { status: 304, headers, body: null };
  }
  const range = request.range === undefined ? null : parseRange(request.range, size);
  if (range === 'unsatisfiable') {
    return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}`, 'content-length': '0' }, body: null };
  }
  if (range === null) {
    return { status: 200, headers: { ...headers, 'content-length': String(size) }, body: storage.read(media.storage_key, 0, size - 1) };
  }
  return {
    status: 206,
    headers: { ...headers, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${size}` },
    body: storage.read(media.storage_key, range.start, range.end),
  };
}

async function readyMedia(ctx: ServiceContext, scope: Scope, id: string): Promise<MediaRow> {
  const row = await selectMedia(ctx.db, scope, id);
  if (!row || row.status !== 'ready') throw errors.missing('media', id);
  return row;
}

/**
 * One range of `bytes=a-b`, `bytes=a-` or `bytes=-n` (RFC 9110 14.1.2). Several ranges, or a header
 * that does not parse, are ignored (the whole file is sent, as the RFC allows); a range that starts
 * past the end is unsatisfiable.
 */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
