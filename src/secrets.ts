// Secrets the service must read back (processor keys, webhook signing secrets) are encrypted at
// rest with SECRET_KEY: AES-256-GCM, a fresh 96-bit nonce per value, and an optional context bound
// in as associated data, so a ciphertext copied into another row or column does not decrypt there.
// API keys, management tokens and passwords are never stored this way: they are only hashed
// (sha256Hex below for random credentials, scrypt for passwords).
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretDecryptionError';
  }
}

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes.');
}

/** Encrypts text into `v1.<nonce>.<tag>.<ciphertext>` (base64url parts). */
export function encryptSecret(key: Buffer, plaintext: string, context = ''): string {
  checkKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** Decrypts what encryptSecret wrote with the same key and context; throws when it was altered. */
export function decryptSecret(key: Buffer, stored: string, context = ''): string {
  checkKey(key);
  const [version, nonce, tag, ciphertext, extra] = stored.split('.');
  if (version !== VERSION || nonce === undefined || tag === undefined || ciphertext === undefined || extra !== undefined) {
    throw new SecretDecryptionError('The stored secret is not in a known format.');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptionError('The stored secret could not be decrypted (wrong SECRET_KEY, context, or altered data).');
  }
}

/** `sk_live_…abcd`: enough to recognise a secret without revealing it. */
export function maskSecret(secret: string): string {
  const prefix = /^[a-z]+_(?:(?:test|live)_)?/.exec(secret)?.[0] ?? '';
  return `${prefix}…${secret.slice(-4)}`;
}

/**
 * SHA-256 as hex: the stored form of random credentials (API keys, management tokens, invitation
 * tokens carry over 200 random bits, so a plain fast hash is a safe lookup key) and the digest of
 * fingerprints and constant-time comparisons. It runs on every API request (the key cache is keyed
 * by it): the one-shot crypto.hash (Node 20.12+) costs about half of createHash().update().digest().
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
