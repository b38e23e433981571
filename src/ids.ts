// Prefixed, time-ordered ids: the part after the prefix is a ULID (48-bit millisecond time in 10
// characters, then 80 random bits in 16), written in lower-case Crockford base32, so sorting ids
// sorts by creation. Ids made in the same millisecond (or after the clock stepped back) keep the
// last time and add one to the last random part, so they stay in creation order too.
//
// Made here rather than by the ulid package: a request id is minted for every request, and ulid
// draws its randomness one character at a time from the system (16 calls per id, measured at 6%
// of the CPU of an authenticated GET). A pooled buffer costs one call per 256 ids.
import { randomBytes, randomFillSync } from 'node:crypto';

export const ID_PREFIXES = {
  category: 'cat',
  listing: 'lst',
  media: 'med',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  event: 'evt',
  payment: 'pay',
  refund: 'ref',
  review: 'rev',
  seller: 'sel',
  buyer: 'byr',
  order: 'ord',
  checkout: 'chk',
  storefront: 'sto',
  onboardingLink: 'obl',
  verification: 'ver',
  dispute: 'dsp',
  cardDispute: 'cdp',
  reputationEvent: 'rep',
  flag: 'flg',
  moderationAction: 'mda',
  orderTransition: 'otr',
  marketplace: 'mkt',
  workspace: 'wsp',
  user: 'usr',
  apiKey: 'key',
  request: 'req',
  email: 'eml',
  timer: 'tmr',
  managementToken: 'mgt',
  dashboardSession: 'dss',
  balanceTransaction: 'btx',
  journalEntry: 'jrn',
  report: 'rpt',
  payout: 'po',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_DIGITS = 16;

// process state: the generator's random pool and its last millisecond, so that the ids one process
// makes are strictly increasing (two generators in one process could interleave out of order).
const pool = new Uint8Array(4096);
let poolAt = pool.length;
let lastMs = -1;
const lastRandom = new Uint8Array(RANDOM_DIGITS);

/** 16 fresh base32 digits; 256 is a multiple of 32, so `byte & 31` is uniform. */
function freshRandom(): void {
  if (poolAt + RANDOM_DIGITS > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  for (let i = 0; i < RANDOM_DIGITS; i++) lastRandom[i] = pool[poolAt++]! & 31;
}

/** Adds one to the random part; false when it was all ones (2^80 ids in one millisecond). */
function incrementRandom(): boolean {
  for (let i = RANDOM_DIGITS - 1; i >= 0; i--) {
    if (lastRandom[i]! < 31) {
      lastRandom[i]!++;
      return true;
    }
    lastRandom[i] = 0;
  }
  return false;
}

/** The 26 characters after the prefix. */
export function timeOrderedPart(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    freshRandom();
  } else if (!incrementRandom()) {
    lastMs += 1;
    freshRandom();
  }
  let time = '';
  let ms = lastMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[ms % 32]! + time;
    ms = Math.floor(ms / 32);
  }
  let random = '';
  for (let i = 0; i < RANDOM_DIGITS; i++) random += CROCKFORD[lastRandom[i]!]!;
  return time + random;
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${timeOrderedPart()}`;
}

/** True when the text has the shape of an id of that kind (used to refuse bad cursors early). */
export function isIdOf(kind: IdKind, value: string): boolean {
  return value.startsWith(`${ID_PREFIXES[kind]}_`) && /^[a-z]+_[0-9a-z]{26}$/.test(value);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 text from rejection-sampled random bytes (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
