// One attempt: POST the exact stored body with the headers of interface 6.3 and a signature made
// now (real time). One deadline of 10 s covers everything from connect to the last byte read, so
// a receiver that drips its answer cannot hold an attempt longer; at most 4,096 characters of the
// answer are read, then the connection is dropped. Redirects are never followed. Connections are
// kept alive in one undici Agent per process (a pool per origin); each new connection resolves its
// host through pinnedLookup, so the address dialed is the address checked.
import { StringDecoder } from 'node:string_decoder';
import { Agent, request } from 'undici';
import type { Mode } from '../../scope.js';
import { addressAllowed, destinationPolicy, ipLiteralOf, isLoopbackHost, pinnedLookup, type DestinationPolicy, type DestinationRules, type Resolver } from './destination.js';
import { signatureHeader } from './signature.js';

export const ATTEMPT_DEADLINE_MS = 10_000;
export const RESPONSE_BODY_LIMIT = 4096;
export const USER_AGENT = 'Service-Webhooks/1';

export interface AttemptRequest {
  url: string;
  secret: string;
  body: string;
  eventId: string;
  deliveryId: string;
  /** The endpoint's mode: test mode on the embedded database may send to loopback. Live when left out. */
  mode?: Mode;
}

export interface AttemptResult {
  ok: boolean;
  headers: Record<string, string>;
  /** The HTTP status answered, null without an answer. */
  status: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

export interface Sender {
  /** Public destinations only (or any, with WEBHOOK_ALLOW_PRIVATE_URLS). */
  agent: Agent;
  /** Public or loopback destinations: test mode on the embedded database; null elsewhere. */
  loopbackAgent: Agent | null;
  rules: DestinationRules;
  /** Each destination URL parsed and judged once per policy (an attempt's DNS is still checked at connect). */
  destinations: Map<string, URL | 'invalid_url' | 'blocked_destination'>;
}

/**
 * The keep-alive connection pools of this process, with the destination check in their lookup.
 * `rules` true or false: WEBHOOK_ALLOW_PRIVATE_URLS alone (no loopback in test mode).
 */
export function createSender(rules: DestinationRules | boolean, resolver: Resolver, connectionsPerOrigin = 64): Sender {
  const destinationRules = typeof rules === 'boolean' ? { allowPrivate: rules, loopbackInTestMode: false } : rules;
  const agentFor = (policy: DestinationPolicy) =>
    new Agent({
      connections: connectionsPerOrigin,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      // The attempt's own deadline is the one that counts; these only bound a stuck socket.
      headersTimeout: ATTEMPT_DEADLINE_MS + 5_000,
      bodyTimeout: ATTEMPT_DEADLINE_MS + 5_000,
      connect: { timeout: ATTEMPT_DEADLINE_MS, ...(policy === 'any' ? {} : { lookup: pinnedLookup(resolver, policy) }) },
    });
  const allowPrivate = destinationRules.allowPrivate;
  return {
    agent: agentFor(allowPrivate ? 'any' : 'public'),
    loopbackAgent: !allowPrivate && destinationRules.loopbackInTestMode ? agentFor('public_or_loopback') : null,
    rules: destinationRules,
    destinations: new Map(),
  };
}

export async function closeSender(sender: Sender): Promise<void> {
  await Promise.all([sender.agent.close(), sender.loopbackAgent?.close()].map((closing) => closing?.catch(() => undefined)));
}

class DeadlineExceeded extends Error {
  readonly code = 'WEBHOOK_DEADLINE';
}

/** The causes of an error, outermost first. */
function chain(error: unknown): Array<{ code?: unknown; name?: unknown; message?: unknown }> {
  const out: Array<{ code?: unknown; name?: unknown; message?: unknown }> = [];
  let current: unknown = error;
  for (let i = 0; i < 5 && current && typeof current === 'object'; i++) {
    out.push(current as { code?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** A short, stable error name for attempt_log and `error`. */
export function attemptError(error: unknown, deadlinePassed: boolean): string {
  if (deadlinePassed) return 'timeout';
  const codes = chain(error).map((e) => String(e.code ?? ''));
  if (codes.includes('WEBHOOK_BLOCKED_DESTINATION')) return 'blocked_destination';
  if (codes.includes('ECONNREFUSED')) return 'connection_refused';
  if (codes.some((c) => c === 'ECONNRESET' || c === 'UND_ERR_SOCKET' || c === 'EPIPE')) return 'connection_reset';
  if (codes.some((c) => c === 'ENOTFOUND' || c === 'EAI_AGAIN' || c === 'EAI_NODATA')) return 'dns_failure';
  if (codes.some((c) => c === 'UND_ERR_CONNECT_TIMEOUT' || c === 'ETIMEDOUT' || c === 'UND_ERR_HEADERS_TIMEOUT' || c === 'UND_ERR_BODY_TIMEOUT')) return 'timeout';
  if (codes.some((c) => c.startsWith('ERR_TLS') || c.startsWith('CERT_') || c.includes('SELF_SIGNED') || c.startsWith('ERR_SSL'))) return 'tls_error';
  return 'network_error';
}

/** The parsed URL of a destination, or why it is refused before any connection is made. */
function destinationOf(sender: Sender, text: string, policy: DestinationPolicy): URL | 'invalid_url' | 'blocked_destination' {
  const key = `${policy} ${text}`;
  let destination = sender.destinations.get(key);
  if (destination === undefined) {
    try {
      const url = new URL(text);
      destination = refusedBeforeConnect(url, policy) ? 'blocked_destination' : url;
    } catch {
      destination = 'invalid_url';
    }
    if (sender.destinations.size > 10_000) sender.destinations.clear();
    sender.destinations.set(key, destination);
  }
  return destination;
}

/** The request's destination fails the check before any connection is made. */
function refusedBeforeConnect(url: URL, policy: DestinationPolicy): boolean {
  if (policy === 'any') return url.protocol !== 'https:' && url.protocol !== 'http:';
  const loopbackAllowed = policy === 'public_or_loopback' && isLoopbackHost(url);
  if (url.protocol !== 'https:' && !(loopbackAllowed && url.protocol === 'http:')) return true;
  const literal = ipLiteralOf(url);
  return literal !== null && !addressAllowed(literal, policy);
}

export async function attemptDelivery(sender: Sender, input: AttemptRequest, stop?: AbortSignal): Promise<AttemptResult> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'Service-Event-Id': input.eventId,
    'Service-Delivery-Id': input.deliveryId,
    'Service-Signature': signatureHeader(input.secret, input.body, Math.floor(Date.now() / 1000)),
  };
  const started = performance.now();
  const policy = destinationPolicy(sender.rules, input.mode ?? 'live');
  const url = destinationOf(sender, input.url, policy);
  if (typeof url === 'string') return { ok: false, headers, status: null, responseBody: null, error: url, durationMs: Math.round(performance.now() - started) };

  const controller = new AbortController();
  let deadlinePassed = false;
  const deadline = setTimeout(() => {
    deadlinePassed = true;
    controller.abort(new DeadlineExceeded('the attempt ran out of time'));
  }, ATTEMPT_DEADLINE_MS);
  const onStop = () => controller.abort(stop?.reason);
  stop?.addEventListener('abort', onStop, { once: true });
  let status: number | null = null;
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body: input.body,
      dispatcher: (policy === 'public_or_loopback' ? sender.loopbackAgent : null) ?? sender.agent,
      signal: controller.signal,
      maxRedirections: 0,
    });
    status = response.statusCode;
    const decoder = new StringDecoder('utf8');
    let text = '';
    for await (const chunk of response.body) {
      text += decoder.write(chunk as Buffer);
      if (text.length >= RESPONSE_BODY_LIMIT) break;
    }
    text = (text + (text.length < RESPONSE_BODY_LIMIT ? decoder.end() : '')).slice(0, RESPONSE_BODY_LIMIT);
    // Whatever is left unread is dropped with its connection: never read past the limit.
    if (!response.body.readableEnded) response.body.destroy();
    const ok = status >= 200 && status < 300;
    const error = ok ? null : status >= 300 && status < 400 ? 'redirect_not_followed' : `http_status_${status}`;
    return { ok, headers, status, responseBody: text, error, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    return { ok: false, headers, status, responseBody: null, error: attemptError(err, deadlinePassed), durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(deadline);
    stop?.removeEventListener('abort', onStop);
  }
}
