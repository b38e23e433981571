// The Stripe SDK client of a secret key, and how a call's outcome reads to the service.
//
// One client per key (and API URL), made on first use: the SDK keeps its connections in it.
// The SDK never retries on its own (maxNetworkRetries 0): the job engine retries a failed call
// with the same idempotency key, under its lease, so retries happen once and are counted.
import Stripe from 'stripe';
import { ProcessorDeclined, type CallContext } from '../../contracts/processor.js';

/** The API version every call is made and typed for: the SDK's own, pinned so an account's default never applies. */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

/** Below the job lease (60 s), so a slow call fails as an attempt rather than outliving the lease. */
const TIMEOUT_MS = 20_000;

// cache: one Stripe client per secret key, reused by every call of the process.
const clients = new Map<string, Stripe>();

/** Where STRIPE_API_URL points the SDK: host, port and protocol (the SDK takes no base path). */
function endpointOf(apiUrl: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port), protocol };
}

export function stripeClient(ctx: CallContext): Stripe {
  if (ctx.credentials.provider !== 'stripe') throw new Error(`The Stripe driver was given ${ctx.credentials.provider} credentials.`);
  const apiUrl = ctx.stripeApiUrl ?? null;
  const cacheKey = `${apiUrl ?? ''}\n${ctx.credentials.secretKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new Stripe(ctx.credentials.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: 0,
      timeout: TIMEOUT_MS,
      telemetry: false,
      ...(apiUrl === null ? {} : endpointOf(apiUrl)),
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/**
 * A refusal of what was asked (a 4xx the same request would get again: card declined, insufficient
 * balance, an account that cannot receive transfers) is the call's answer: ProcessorDeclined. Every
 * other failure (network, timeout, 5xx, rate limit, an idempotency conflict, a bad key) is thrown
 * as is, for the job engine to retry with the same key.
 */
function isRefusal(error: unknown): error is Stripe.errors.StripeCardError | Stripe.errors.StripeInvalidRequestError {
  return error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError;
}

function declinedOf(error: Stripe.errors.StripeCardError | Stripe.errors.StripeInvalidRequestError): ProcessorDeclined {
  // A card's decline code (insufficient_funds, lost_card) says more than its code (card_declined).
  return new ProcessorDeclined(error.message, error.decline_code || error.code || null);
}

/**
 * Runs one SDK call: refusals become ProcessorDeclined, and the job's abort signal stops the wait
 * (the SDK takes no signal; the request may still land, which the idempotency key makes harmless).
 */
export async function callStripe<T>(ctx: CallContext, call: (stripe: Stripe) => Promise<T>): Promise<T> {
  const { signal } = ctx;
  signal?.throwIfAborted();
  const pending = call(stripeClient(ctx));
  try {
    if (!signal) return await pending;
    return await new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('The Stripe call was aborted.'));
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  } catch (error) {
    if (isRefusal(error)) throw declinedOf(error);
    throw error;
  }
}
