// Prefixed, time-ordered ids: the random part is a ULID (48-bit millisecond time, then
// randomness), lower-cased, so sorting ids sorts by creation. The monotonic factory keeps
// ids made in the same millisecond in creation order too.
import { monotonicFactory } from 'ulid';
import { randomBytes } from 'node:crypto';

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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ulid = monotonicFactory();

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid().toLowerCase()}`;
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
