// The signature of interface 6.4: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
// keyed with the endpoint's signing secret. It is Stripe's scheme, so Stripe's libraries verify it
// too (stripe.webhooks.constructEvent). `t` is always real time, whatever the test clock says.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Interface 6.4: a receiver refuses a `t` further than this from its own clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
}

function hmacHex(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** The Service-Signature header for `body` sent at `t` (unix seconds). */
export function signatureHeader(secret: string, body: string, t: number): string {
  return `t=${t},v1=${hmacHex(secret, t, body)}`;
}

/**
 * The receiver's check (docs/webhooks.md shows it): true when one `v1` of the header is the
 * HMAC of the raw body at its `t`, and `t` is within the tolerance of `nowSeconds`.
 */
export function verifySignature(
  body: string,
  header: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string | undefined]);
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, t, body), 'hex');
  return parts.some(([key, value]) => {
    if (key !== 'v1' || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, 'hex'), expected);
  });
}
