// What the media module needs of a file store, whatever keeps the files: where the client PUTs a
// declared file, a link to read it, the stored size and first bytes (for complete's checks), and
// deletion. Two drivers implement it (local.ts, s3.ts); src/app/wiring.ts picks one by STORAGE.
import type { Readable } from 'node:stream';
import type { Clock } from '../clock.js';
import type { Queryable } from '../db/db.js';
import type { Scope } from '../scope.js';

/** An upload address is valid 10 minutes (interface.md 8). */
export const UPLOAD_TTL_MS = 10 * 60 * 1000;

const HOUR_MS = 60 * 60 * 1000;

/** The declared file of one media. */
export interface MediaFile {
  scope: Scope;
  mediaId: string;
  /** {marketplace}/{mode}/{listing}/{media} */
  key: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * Now on the two clocks a signed address may be checked against: the mode's (local links are
 * checked by this service, on the test clock in test mode) and real time (S3 checks its own).
 */
export interface Moment {
  modeNow: Date;
  realNow: Date;
}

export interface SignedLink {
  url: string;
  /** On the mode's clock. */
  expiresAt: Date;
}

export interface StoredFile {
  size: number;
  /** The first bytes of the file (up to the number asked for). */
  head: Buffer;
}

export interface StorageDriver {
  readonly kind: 'local' | 's3';
  /** The address the client PUTs the file to: bound to its type and size, valid until `expiresAt` (mode clock). */
  uploadUrl(file: MediaFile, moment: Moment, expiresAt: Date): Promise<string>;
  /** A link to read the file, valid at least one hour, the same link all through one hour so caches work. */
  downloadLink(file: MediaFile, moment: Moment): Promise<SignedLink>;
  /** The stored size and first `headBytes` bytes; null when nothing is stored under the key. */
  inspect(key: string, headBytes: number): Promise<StoredFile | null>;
  /** Deletes the file; deleting a missing file is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Stores a file the service wrote itself (a report's CSV), streamed from `body` (`size` bytes):
   * nothing is kept under the key when it fails.
   */
  store(key: string, body: Readable, size: number, contentType: string): Promise<void>;
  /** A link to download a report's file, valid one to two hours like a media link (linkExpiry). */
  reportLink(file: ReportFile, moment: Moment): Promise<SignedLink>;
  /** The addresses this service serves itself (the local driver's); null where the store signs its own (S3). */
  readonly served: ServedFiles | null;
}

/** What a signed address of the local driver is for: PUT /uploads/{token}, GET /media/{token}, GET /report_files/{token}. */
export type TokenPurpose = 'upload' | 'media' | 'report';

/** A signed address's token, checked: what it names (a media's id, or a report's) and now on its mode's clock. */
export interface CheckedToken {
  scope: Scope;
  id: string;
  expiresAt: Date;
  /** Now on the mode's clock, which the token was checked against. */
  now: Date;
}

/** The local driver's own side: the files behind the addresses the service serves. */
export interface ServedFiles {
  /**
   * The token of an address this service signed for `purpose`, checked against its mode's clock:
   * 403 url_signature_invalid (not signed here, or altered), 403 url_expired.
   */
  checkToken(q: Queryable, clock: Clock, purpose: TokenPurpose, text: string): Promise<CheckedToken>;
  /** Streams `body` into the file of `key`; nothing is kept under the key when it fails. */
  receive(key: string, body: Readable): Promise<void>;
  /** The size of the stored file, or null. */
  sizeOf(key: string): Promise<number | null>;
  /** A stream of bytes start..end (inclusive) of the file. */
  read(key: string, start: number, end: number): Readable;
}

/** A report's stored file, as its download link names it. */
export interface ReportFile {
  scope: Scope;
  reportId: string;
  key: string;
  contentType: string;
  /** The name the browser saves it under. */
  filename: string;
}

/** Where a report's file is kept: beside the media, under reports/. */
export function reportStorageKey(scope: Scope, reportId: string): string {
  return `${scope.marketplaceId}/${scope.mode}/reports/${reportId}.csv`;
}

export function storageKey(scope: Scope, listingId: string, mediaId: string): string {
  return `${scope.marketplaceId}/${scope.mode}/${listingId}/${mediaId}`;
}

/**
 * The end of a link made at `at`: the start of its hour plus two hours. Every link made within one
 * hour is the same link (caches keep it), and each stays valid between one and two hours.
 */
export function linkExpiry(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS + 2 * HOUR_MS);
}
