// Signed tokens of the local driver's addresses: PUT /uploads/{token} (an upload grant for one
// media) and GET /media/{token} (a link to its file). A token names the marketplace, mode and
// media, when it ends (seconds, mode clock) and its purpose, and carries an HMAC-SHA256 over them
// with a key derived from SECRET_KEY. It fits one path segment (the router allows 100 characters).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MODES, type Mode, type Scope } from '../../scope.js';
import type { TokenPurpose } from '../../contracts/storage.js';

// 'report': GET /report_files/{token}, a report's file (the id in the token is the report's).
export type { TokenPurpose };

export interface UrlToken {
  purpose: TokenPurpose;
  scope: Scope;
  mediaId: string;
  expiresAt: Date;
}

const SIGNATURE_BYTES = 16;
const MODE_LETTER: Record<Mode, string> = { test: 't', live: 'l' };

/** A key of its own for URL signatures, so they never share a key with encryption at rest. */
export function urlSigningKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update('media-url-signing').digest();
}

function signature(key: Buffer, purpose: TokenPurpose, body: string): Buffer {
  return createHmac('sha256', key).update(`${purpose}\n${body}`).digest().subarray(0, SIGNATURE_BYTES);
}

export function signToken(key: Buffer, token: UrlToken): string {
  const seconds = Math.floor(token.expiresAt.getTime() / 1000).toString(36);
  const body = [token.scope.marketplaceId, MODE_LETTER[token.scope.mode], token.mediaId, seconds].join('.');
  return `${body}.${signature(key, token.purpose, body).toString('base64url')}`;
}

/** The token's fields when its signature is right for `purpose`; null for anything else. */
export function verifyToken(key: Buffer, purpose: TokenPurpose, text: string): UrlToken | null {
  const parts = text.split('.');
  if (parts.length !== 5) return null;
  const [marketplaceId = '', letter = '', mediaId = '', seconds = '', sig = ''] = parts;
  // Compared as text: decoding first would accept several spellings of one signature (the last
  // base64url character carries unused bits), so an altered link could still verify.
  const given = Buffer.from(sig, 'latin1');
  const expected = Buffer.from(signature(key, purpose, parts.slice(0, 4).join('.')).toString('base64url'), 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const mode = MODES.find((m) => MODE_LETTER[m] === letter);
  const expiresMs = parseInt(seconds, 36) * 1000;
  if (!mode || !Number.isFinite(expiresMs)) return null;
  return { purpose, scope: { marketplaceId, mode }, mediaId, expiresAt: new Date(expiresMs) };
}
