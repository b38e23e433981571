// Prefixed, time-ordered ids: the part after the prefix is a ULID (48-bit millisecond time in 10
// characters, then 80 random bits in 16), written in lower-case Crockford base32, so sorting ids
// sorts by creation. Ids made in the same millisecond (or after the clock stepped back) keep the
// last time and add one to the last random part, so they stay in creation order too.
//
// Made here rather than by the ulid package: a request id is minted for every request, and ulid
// draws its randomness one character at a time from the system (16 calls per id, measured at 6%
// of the CPU of an authenticated GET). A pooled buffer costs one call per 256 ids.
import { randomBytes, randomFillSync } from 'node:crypto';

/**
 * The prefixes of the ids no module owns: the event (src/outbox/), the request (src/http/) and
 * the timer (src/workers/). A module declares the prefixes of its own resources in its folder (its
 * declarations.ts, listed by its manifest, merged into ModuleIdPrefixes below by `declare module`);
 * the composition root assembles them with these, refuses a kind or a prefix declared twice, and
 * installs the table (src/app/wiring.ts) before the process mints an id.
 */
export const KERNEL_ID_PREFIXES = {
  event: 'evt',
  request: 'req',
  timer: 'tmr',
} as const;

/**
 * The id kinds the modules declare, with their prefixes. Empty here: each module's declarations.ts
 * adds its table (`declare module '../../ids.js' { interface ModuleIdPrefixes extends ... {} }`),
 * so a kind is a checked literal everywhere without a central list naming it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleIdPrefixes {}

export type IdKind = keyof typeof KERNEL_ID_PREFIXES | (keyof ModuleIdPrefixes & string);

/** Id prefixes by kind: the kernel's, a module's (its declarations.ts), or every one assembled. */
export type IdPrefixTable = Readonly<Record<string, string>>;

// process state: the prefix of every kind, built once from the manifests by the composition root
// (installIdPrefixes): one property read per id, as when the table was a constant.
let prefixes: IdPrefixTable = KERNEL_ID_PREFIXES;

/**
 * Adds the assembled table (src/app/wiring.ts) to the process's. Two wirings of one process (a test
 * adds a module) may install twice: a kind or a prefix they give differently is refused, so an id
 * never changes its prefix while the process runs.
 */
export function installIdPrefixes(table: IdPrefixTable): void {
  const byPrefix = new Map(Object.entries(prefixes).map(([kind, prefix]) => [prefix, kind]));
  for (const [kind, prefix] of Object.entries(table)) {
    const known = prefixes[kind];
    if (known !== undefined && known !== prefix) throw new Error(`id kind '${kind}' has the prefix '${known}' in this process, not '${prefix}'`);
    const owner = byPrefix.get(prefix);
    if (owner !== undefined && owner !== kind) throw new Error(`id prefix '${prefix}' belongs to the kind '${owner}' in this process, not to '${kind}'`);
  }
  prefixes = Object.freeze({ ...prefixes, ...table });
}

/** Every kind with its prefix, as installed (the kernel's until the root installs the modules'). */
export function idPrefixes(): IdPrefixTable {
  return prefixes;
}

function prefixOf(kind: IdKind): string {
  const prefix = prefixes[kind];
  if (prefix === undefined) {
    throw new Error(`id kind '${kind}' has no prefix in this process: its module's manifest declares none, or the composition root (src/app/wiring.ts) has not installed them yet`);
  }
  return prefix;
}

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
  return `${prefixOf(kind)}_${timeOrderedPart()}`;
}

/** True when the text has the shape of an id of that kind (used to refuse bad cursors early). */
export function isIdOf(kind: IdKind, value: string): boolean {
  return value.startsWith(`${prefixOf(kind)}_`) && /^[a-z]+_[0-9a-z]{26}$/.test(value);
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
