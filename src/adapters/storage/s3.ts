// The S3 driver (STORAGE=s3): AWS S3 or an S3-compatible server (S3_ENDPOINT, S3_FORCE_PATH_STYLE).
// The client PUTs to a presigned URL whose signature covers Content-Type and Content-Length, so S3
// refuses another type or size; files are read through presigned GET links. Presigned addresses
// are checked by the S3 server on real time, so they are signed on real time; the expiry shown is
// the same instant on the mode's clock.
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../../config.js';
import type { Readable } from 'node:stream';
import { linkExpiry, type MediaFile, type Moment, type ReportFile, type SignedLink, type StorageDriver, type StoredFile } from '../../contracts/storage.js';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

export class S3Storage implements StorageDriver {
  readonly kind = 's3' as const;
  /** S3 signs and serves its own addresses: none comes to this service. */
  readonly served = null;
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      // No SDK checksums in presigned URLs: a checksum computed at signing time (of no body) would
      // make S3 refuse the browser's upload; the signed Content-Length and complete's checks stand in.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // complete asks the store before its own transaction, but under an Idempotency-Key the request
      // layer's transaction is open around it: a silent S3 must not hold that for long.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 15_000 },
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
    });
  }

  async uploadUrl(file: MediaFile, moment: Moment, expiresAt: Date): Promise<string> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: file.key, ContentType: file.contentType, ContentLength: file.sizeBytes });
    const seconds = Math.max(1, Math.round((expiresAt.getTime() - moment.modeNow.getTime()) / 1000));
    return getSignedUrl(this.client, command, {
      expiresIn: seconds,
      signingDate: moment.realNow,
      // Signed as headers, not hoisted into the query: S3 then refuses a PUT whose headers differ.
      signableHeaders: new Set(['content-type', 'content-length']),
      unhoistableHeaders: new Set(['content-type', 'content-length']),
    });
  }

  async downloadLink(file: MediaFile, moment: Moment): Promise<SignedLink> {
    return this.signedGet(new GetObjectCommand({ Bucket: this.bucket, Key: file.key }), moment);
  }

  async reportLink(file: ReportFile, moment: Moment): Promise<SignedLink> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: file.key,
      ResponseContentType: file.contentType,
      ResponseContentDisposition: `attachment; filename="${file.filename}"`,
    });
    return this.signedGet(command, moment);
  }

  /** Streamed with its length given, so the SDK sends it in one PUT without reading it into memory first. */
  async store(key: string, body: Readable, size: number, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: size, ContentType: contentType }));
  }

  /** A presigned GET, the same link all through one hour of real time (linkExpiry). */
  private async signedGet(command: GetObjectCommand, moment: Moment): Promise<SignedLink> {
    const realExpiry = linkExpiry(moment.realNow);
    const signingDate = new Date(realExpiry.getTime() - 2 * 60 * 60 * 1000);
    const url = await getSignedUrl(this.client, command, { expiresIn: 2 * 60 * 60, signingDate });
    const offsetMs = moment.modeNow.getTime() - moment.realNow.getTime();
    return { url, expiresAt: new Date(realExpiry.getTime() + offsetMs) };
  }

  async inspect(key: string, headBytes: number): Promise<StoredFile | null> {
    let size: number;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      size = head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    if (size === 0) return { size, head: Buffer.alloc(0) };
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${headBytes - 1}` }));
    const bytes = object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    return { size, head: bytes.subarray(0, headBytes) };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}
