// The local driver (STORAGE=local, the default): files under DATA_DIR/media/{key}. The service
// itself takes the PUT at {PUBLIC_URL}/uploads/{token} and serves {PUBLIC_URL}/media/{token}
// (src/modules/media/routes/files.ts); both tokens are signed (url-tokens.ts). A file is
// streamed to a temporary name beside its final one and renamed when complete, so a reader never
// sees half a file and memory holds one chunk at a time, whatever the size.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.js';
import { linkExpiry, type MediaFile, type Moment, type ReportFile, type SignedLink, type StorageDriver, type StoredFile } from '../../contracts/storage.js';
import { signToken, urlSigningKey } from './url-tokens.js';

export class LocalStorage implements StorageDriver {
  readonly kind = 'local' as const;
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
