// Passwords are hashed with scrypt (node:crypto), with a per-password salt; compared in constant time.
// The cost is OWASP's figure for scrypt (N=2^17, r=8, p=1: 128 MiB and a few hundred milliseconds
// per hash). The stored hash names its parameters (scrypt$N$r$p$salt$key), so a hash made with
// older ones still verifies, and login re-hashes it with the current ones (needsRehash).
//
// scrypt runs on libuv's thread pool (4 threads by default), which DNS look-ups of webhook
// deliveries and local media I/O share: at most MAX_CONCURRENT_HASHES run at once in a process,
// the others wait in line, so a flood of sign-ups or logins cannot take every thread.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { limitConcurrency } from '../../concurrency.js';

/** log2(N) when PASSWORD_HASH_COST is unset: OWASP's 2^17. */
export const DEFAULT_PASSWORD_HASH_COST = 17;
export const MAX_CONCURRENT_HASHES = 2;
const R = 8;
const P = 1;
const KEYLEN = 64;
// A stored hash asking for more than this is refused rather than allowed to take gigabytes.
const MAX_STORED_LOG2_N = 20;

const hashSlots = limitConcurrency(MAX_CONCURRENT_HASHES);

function scrypt(password: string, salt: Buffer, keylen: number, N: number, r: number, p: number): Promise<Buffer> {
  // Node refuses more than 32 MiB by default; scrypt needs 128·N·r bytes (plus 128·r·p), so twice that.
  const options: ScryptOptions = { N, r, p, maxmem: 2 * 128 * N * r + 128 * r * p };
  return hashSlots.run(
    () =>
      new Promise((resolve, reject) =>
        scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

/** A new hash of the password at the configured cost (PASSWORD_HASH_COST: log2 of scrypt's N). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  const key = await scrypt(password, salt, KEYLEN, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return null;
  const parsed = { N: Number(n), r: Number(r), p: Number(p), salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
  const powerOfTwo = Number.isInteger(parsed.N) && parsed.N > 1 && (parsed.N & (parsed.N - 1)) === 0;
  if (!powerOfTwo || parsed.N > 2 ** MAX_STORED_LOG2_N || !(parsed.r >= 1 && parsed.r <= 32) || !(parsed.p >= 1 && parsed.p <= 16)) return null;
  return parsed;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const hash = parse(stored);
  if (!hash) return false;
  const actual = await scrypt(password, hash.salt, hash.key.length, hash.N, hash.r, hash.p);
  return timingSafeEqual(actual, hash.key);
}

/** Whether a stored hash was made with other parameters than the configured ones: login then hashes the password again. */
export function needsRehash(stored: string, cost: number): boolean {
  const hash = parse(stored);
  return !hash || hash.N !== 2 ** cost || hash.r !== R || hash.p !== P || hash.key.length !== KEYLEN;
}
