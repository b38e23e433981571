// Webhook verification, exactly as the service signs (interface 6.4, docs/webhooks.md):
// `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the
// endpoint's secret (`whsec_…`), refused when `t` is more than the tolerance (300 s) from this
// clock. constructEvent checks it on the raw body and answers the event typed by its `type`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './errors.js';
import type { components } from './schema.js';

/** The header a delivery's signature arrives in. */
export const SIGNATURE_HEADER = 'Service-Signature';
/** Interface 6.4: a `t` further than this from the receiver's clock is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Every event a webhook delivers: the document's `WebhookEvent`, a union of one envelope per type
 * (its `webhooks` section), discriminated by `type`: `switch (event.type)` narrows `data.object`
 * (and `data.previous_attributes` where the type has it) to that event's object.
 */
export type WebhookEvent = components['schemas']['WebhookEvent'];

/** Every event type the service emits. */
export type EventType = WebhookEvent['type'];

/** The event whose `type` is `T` (`EventOf<'order.created'>`: `data.object` is an Order). */
export type EventOf<T extends EventType> = Extract<WebhookEvent, { type: T }>;

export interface ConstructEventOptions {
  /** Seconds `t` may be from `now`: 300 by default (interface 6.4). */
  tolerance?: number;
  /** This clock, in unix seconds (tests); the real time by default. */
  now?: number;
}

const utf8 = new TextEncoder();
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

function hmac(secret: string, t: number, body: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest();
}

/**
 * The event of a delivery, after checking its signature on the raw body (a string of the exact
 * body, or its bytes: parse the JSON before and the check fails). Throws WebhookSignatureError
 * (`reason` says why) when the header is missing or malformed, `t` is outside the tolerance, or no
 * `v1` matches. An event type added to the service after this client was built still arrives,
 * with its own `type`: keep a default branch.
 */
export function constructEvent(
  body: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: ConstructEventOptions = {},
): WebhookEvent {
  if (!header) throw new WebhookSignatureError('missing_header', `No ${SIGNATURE_HEADER} header.`);
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string | undefined]);
  const t = Number(parts.find(([key]) => key.trim() === 't')?.[1]);
  const given = parts.filter(([key, value]) => key.trim() === 'v1' && value !== undefined && HEX_SIGNATURE.test(value)).map(([, value]) => value as string);
  if (!Number.isInteger(t) || given.length === 0) {
    throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} must be t=<unix seconds>,v1=<64 hex digits>.`);
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - t) > tolerance) {
    throw new WebhookSignatureError('timestamp_outside_tolerance', `The signature's time (t=${t}) is more than ${tolerance} s from this clock (${now}).`);
  }
  const bytes = typeof body === 'string' ? utf8.encode(body) : body;
  const expected = hmac(secret, t, bytes);
  if (!given.some((value) => timingSafeEqual(Buffer.from(value, 'hex'), expected))) {
    throw new WebhookSignatureError('no_matching_signature', 'No signature matches this body with this secret.');
  }
  let event: unknown;
  try {
    event = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
  } catch {
    throw new WebhookSignatureError('invalid_payload', 'The body is not JSON.');
  }
  const envelope = event as { object?: unknown; type?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || envelope.object !== 'event' || typeof envelope.type !== 'string') {
    throw new WebhookSignatureError('invalid_payload', 'The body is not an event.');
  }
  return event as WebhookEvent;
}

/** A valid header for `body` (a receiver's own tests): what the service would send at `timestamp`. */
export function signatureHeader(body: string | Uint8Array, secret: string, timestamp: number = Math.floor(Date.now() / 1000)): string {
  const bytes = typeof body === 'string' ? utf8.encode(body) : body;
  return `t=${timestamp},v1=${hmac(secret, timestamp, bytes).toString('hex')}`;
}

export interface Webhooks {
  constructEvent: typeof constructEvent;
  signatureHeader: typeof signatureHeader;
}

export const webhooks: Webhooks = { constructEvent, signatureHeader };
