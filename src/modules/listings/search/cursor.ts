// Search cursors (contract 4: opaque). A cursor is the position after the last result of a page,
// as the sort sees it (the sort key and the id), signed with HMAC-SHA256 under a key derived from
// SECRET_KEY. The signature covers the marketplace, the mode and the search itself (query, filters,
// sort), so a cursor that was altered, or made for another search or another marketplace, does not
// verify and answers 400 `param: cursor`. A position rather than an offset: each page is a keyset
// condition an index can seek to, and listings created or removed between pages shift nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from '../../../errors.js';
import type { Scope } from '../../../scope.js';

/** Where the next page starts, per sort (see docs/search.md, "Cursors"). */
export type SearchPosition =
  | { sort: 'newest'; id: string }
  | { sort: 'price_asc' | 'price_desc'; price: number; id: string }
  /**
   * Relevance: `window` is the id range of the candidates ranked on the first page (oldest,
   * newest). Phase 1 walks them by (rank, id); phase 2 the older matches, newest first, by id.
   */
  | { sort: 'relevance'; phase: 1; rank: number; id: string; window: [string, string] }
  | { sort: 'relevance'; phase: 2; id: string; window: [string, string] };

const SIGNATURE_BYTES = 16;

function cursorKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update('listing-search-cursor').digest();
}

function sign(secretKey: Buffer, scope: Scope, fingerprint: string, payload: string): Buffer {
  return createHmac('sha256', cursorKey(secretKey))
    .update(`${scope.marketplaceId}\n${scope.mode}\n${fingerprint}\n${payload}`)
    .digest()
    .subarray(0, SIGNATURE_BYTES);
}

export function encodeCursor(secretKey: Buffer, scope: Scope, fingerprint: string, position: SearchPosition): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${sign(secretKey, scope, fingerprint, payload).toString('base64url')}`;
}

const refusal = (param: string) => errors.invalidRequest('The cursor is not one this search gave out: pass next_cursor back unchanged, with the same filters and sort.', param);

/** `param`: the query parameter that carried the cursor (`cursor`, or its other name `starting_after`). */
export function decodeCursor(secretKey: Buffer, scope: Scope, fingerprint: string, cursor: string, param = 'cursor'): SearchPosition {
  const invalid = () => refusal(param);
  const [payload, signature, extra] = cursor.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined) throw invalid();
  const given = Buffer.from(signature, 'base64url');
  const expected = sign(secretKey, scope, fingerprint, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!isPosition(position)) throw invalid();
  return position;
}

const isId = (value: unknown): value is string => typeof value === 'string' && value.startsWith('lst_');

/** Signed cursors are ours; the shape is checked anyway so a key leak cannot reach the SQL with junk. */
function isPosition(value: unknown): value is SearchPosition {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  if (!isId(p.id)) return false;
  switch (p.sort) {
    case 'newest':
      return true;
    case 'price_asc':
    case 'price_desc':
      return Number.isSafeInteger(p.price);
    case 'relevance': {
      const window = p.window;
      if (!Array.isArray(window) || window.length !== 2 || !isId(window[0]) || !isId(window[1])) return false;
      return p.phase === 2 || (p.phase === 1 && typeof p.rank === 'number' && Number.isFinite(p.rank));
    }
    default:
      return false;
  }
}
