// The local driver (STORAGE=local, the default): files under DATA_DIR/media/{key}. The service
// itself takes the PUT at {PUBLIC_URL}/uploads/{token} and serves {PUBLIC_URL}/media/{token}
// (src/modules/media/routes/files.ts), and reports' files at {PUBLIC_URL}/report_files/{token};
// the tokens are signed (url-tokens.ts) and checked here for both modules (`served`). A file is
// streamed to a temporary name beside its final one and renamed when complete, so a reader never
// sees half a file and memory holds one chunk at a time, whatever the size.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/db.js';
import { errors } from '../../errors.js';
import { modeNow } from '../../scope.js';
import {
  linkExpiry,
  type CheckedToken,
  type MediaFile,
  type Moment,
  type ReportFile,
  type ServedFiles,
  type SignedLink,
  type StorageDriver,
  type StoredFile,
  type TokenPurpose,
} from '../../contracts/storage.js';
import { signToken, urlSigningKey, verifyToken } from './url-tokens.js';

/** What to do when an address has expired, by its purpose. */
const AFTER_EXPIRY: Record<TokenPurpose, string> = {
  upload: 'start a new upload.',
  media: 'read the media again for a fresh url.',
  report: 'read the report again for a fresh url.',
};

export class LocalStorage implements StorageDriver, ServedFiles {
  readonly kind = 'local' as const;
  readonly served: ServedFiles = this;
  readonly signingKey: Buffer;
  private readonly root: string;

  constructor(private readonly config: Config) {
    this.signingKey = urlSigningKey(config.secretKey);
    this.root = join(config.dataDir, 'media');
  }

  async uploadUrl(file: MediaFile, _moment: Moment, expiresAt: Date): Promise<string> {
    const token = signToken(this.signingKey, { purpose: 'upload', scope: file.scope, mediaId: file.mediaId, expiresAt });
    return `${this.config.publicUrl}/uploads/${token}`;
  }

  async downloadLink(file: MediaFile, moment: Moment): Promise<SignedLink> {
    const expiresAt = linkExpiry(moment.modeNow);
    const token = signToken(this.signingKey, { purpose: 'media', scope: file.scope, mediaId: file.mediaId, expiresAt });
    return { url: `${this.config.publicUrl}/media/${token}`, expiresAt };
  }

  async reportLink(file: ReportFile, moment: Moment): Promise<SignedLink> {
    const expiresAt = linkExpiry(moment.modeNow);
    const token = signToken(this.signingKey, { purpose: 'report', scope: file.scope, mediaId: file.reportId, expiresAt });
    return { url: `${this.config.publicUrl}/report_files/${token}`, expiresAt };
  }

  async checkToken(q: Queryable, clock: Clock, purpose: TokenPurpose, text: string): Promise<CheckedToken> {
    const token = verifyToken(this.signingKey, purpose, text);
    if (!token) throw errors.forbidden('url_signature_invalid', 'The address is not one this service signed, or it was altered.');
    const now = await modeNow(q, clock, token.scope);
    if (token.expiresAt <= now) {
      const address = purpose === 'upload' ? 'upload address' : 'link';
      throw errors.forbidden('url_expired', `The ${address} expired at ${token.expiresAt.toISOString()}; ${AFTER_EXPIRY[purpose]}`);
    }
    return { scope: token.scope, id: token.mediaId, expiresAt: token.expiresAt, now };
  }

  async store(key: string, body: Readable): Promise<void> {
    await this.receive(key, body);
  }

  async inspect(key: string, headBytes: number): Promise<StoredFile | null> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(Math.min(size, headBytes));
      await handle.read(head, 0, head.length, 0);
      return { size, head };
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Streams `body` into the file of `key`; nothing is kept under the key when it fails. */
  async receive(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
    } finally {
      await rm(partial, { force: true });
    }
  }

  /** The size of the stored file, or null. */
  async sizeOf(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** A stream of bytes start..end (inclusive) of the file. */
  read(key: string, start: number, end: number): Readable {
    return createReadStream(this.pathOf(key), { start, end });
  }

  private pathOf(key: string): string {
    // Keys are built from ids (src/contracts/storage.ts, storageKey): no "..", no absolute paths.
    return join(this.root, ...key.split('/'));
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
