// API-key authentication of /v1. Two scopes use it: one for the
// operations a publishable key may call (PK), one for secret-key-only operations; a route's scope
// decides, so the two cannot be confused. Order of checks: key present and valid (401), rate limit
// (429), key kind (403 secret_key_required), a dashboard member's role on writes (403
// permission_denied), read-only marketplace on writes (403). A request without Authorization may
// be the dashboard's, authenticated by its session cookie (SessionAuthenticator).
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { DomainError } from '../errors.js';
import type { ApiKeyContext } from '../contracts/context.js';
import type { ApiKeys, RateDecision, RateLimiter } from '../contracts/wiring.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key's context; set on every /v1 route by the auth hook. */
    api: ApiKeyContext;
  }
}

export type Access = 'secret' | 'publishable';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * What is wrong with an Authorization header that is present but not `Bearer <token>`, for the
 * 401 message; null when it is well formed (or absent). It never repeats the header's text, which
 * may be a key, except a scheme name made of letters only (Basic, Token).
 */
export function malformedAuthorization(header: string | undefined): string | null {
  if (header === undefined || header.trim() === '' || /^Bearer\s+\S+\s*$/i.test(header)) return null;
  const expected = "Authorization must be 'Bearer <key>'";
  const words = header.trim().split(/\s+/);
  const first = words[0] ?? '';
  if (/^Bearer$/i.test(first)) return words.length === 1 ? `${expected}; no key follows 'Bearer'.` : `${expected}; the key may not contain spaces.`;
  if (words.length > 1 && /^[A-Za-z]{2,20}$/.test(first)) return `${expected}; the header uses the '${first}' scheme.`;
  return `${expected}; the header has no 'Bearer ' prefix.`;
}

/**
 * The dashboard's way into /v1: a signed-in member acting on a marketplace's mode with the
 * powers of that mode's secret key, bounded by the member's role. Null when the request carries
 * no session; it throws for a session that is not valid or a marketplace that is not the member's.
 */
export type SessionAuthenticator = (request: FastifyRequest) => Promise<SessionCredential | null>;

export interface SessionCredential {
  /** Like a secret key's; keyId names the marketplace and mode, so rate limits are per mode. */
  context: ApiKeyContext;
  /** The answer to any request other than a read (a viewer's role), or null. */
  refuseWrites: DomainError | null;
}

type Done = (error?: Error) => void;

/**
 * Runs `next` with the value now if it is one, or when the promise settles; a rejection goes to
 * `fail`, and so does an error `next` throws after a wait (Fastify catches a hook's synchronous
 * throw itself, but one thrown in a promise callback would be an unhandled rejection and the
 * request would never be answered).
 */
function whenReady<T>(value: T | PromiseLike<T>, next: (value: T) => void, fail: Done): void {
  if (typeof (value as PromiseLike<T> | null)?.then !== 'function') return next(value as T);
  (value as PromiseLike<T>).then((settled) => {
    try {
      next(settled);
    } catch (error) {
      fail(error as Error);
    }
  }, fail);
}

/**
 * The /v1 auth hook. A callback hook, not an async one: a cached key and the in-process rate
 * limiter answer at once, so a request with a known key goes on without a promise or a turn of
 * the microtask queue; only a key the cache must load, a shared (Redis) limiter or a session wait.
 * `admitted` runs once every check passed (the operation context is built there).
 */
export function apiKeyAuth(
  keys: ApiKeys,
  limiter: RateLimiter,
  access: Access,
  sessions: SessionAuthenticator | undefined,
  admitted: (request: FastifyRequest) => void,
): onRequestHookHandler {
  /** After the credential: the rate limit, the key kind, the member's role, a read-only marketplace. */
  function admit(request: FastifyRequest, context: ApiKeyContext, refuseWrites: DomainError | null, done: Done): void {
    request.api = context;
    whenReady(
      limiter.consume(context.keyId, context.settings.rate_limit_per_second),
      (decision) => {
        const refusal = refusalOf(request, context, refuseWrites, decision);
        if (refusal) return done(refusal);
        admitted(request);
        done();
      },
      done,
    );
  }

  function refusalOf(request: FastifyRequest, context: ApiKeyContext, refuseWrites: DomainError | null, decision: RateDecision): DomainError | null {
    if (!decision.allowed) {
      return new DomainError('rate_limited', 'Too many requests for this key; wait Retry-After seconds.', undefined, {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
    if (access === 'secret' && context.keyType !== 'secret') {
      return new DomainError('secret_key_required', 'This operation needs a secret key; a publishable key was sent.');
    }
    if (refuseWrites && !READ_METHODS.has(request.method)) return refuseWrites;
    if (context.readOnly && !READ_METHODS.has(request.method)) return new DomainError('marketplace_read_only', context.readOnly.message);
    return null;
  }

  return function authenticate(request: FastifyRequest, _reply: FastifyReply, done: Done) {
    if (request.method === 'OPTIONS') return done();
    const token = bearerToken(request);
    if (token === null) {
      // Without an Authorization header the dashboard's session cookie may stand in for a key.
      if (!sessions) return done(missingKey());
      return whenReady(
        sessions(request),
        (session) => (session ? admit(request, session.context, session.refuseWrites, done) : done(missingKey())),
        done,
      );
    }
    const malformed = malformedAuthorization(request.headers.authorization);
    if (malformed !== null) return done(new DomainError('api_key_invalid', malformed));
    whenReady(
      keys.lookup(token),
      (found) =>
        found ? admit(request, found, null, done) : done(new DomainError('api_key_invalid', 'The API key is not valid, or it was revoked or has expired.')),
      done,
    );
  };
}

function missingKey(): DomainError {
  return new DomainError('api_key_missing', 'No API key provided. Send it as "Authorization: Bearer <key>".');
}
