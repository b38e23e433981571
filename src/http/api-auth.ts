// API-key authentication of /v1. Two scopes use it: one for the
// operations a publishable key may call (PK), one for secret-key-only operations; a route's scope
// decides, so the two cannot be confused. Order of checks: key present and valid (401), rate limit
// (429), key kind (403 secret_key_required), a dashboard member's role on writes (403
// permission_denied), read-only marketplace on writes (403). A request without Authorization may
// be the dashboard's, authenticated by its session cookie (SessionAuthenticator).
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { DomainError } from '../errors.js';
import type { ApiKeyContext } from '../contracts/context.js';
import type { ApiKeys, RateLimiter } from '../contracts/wiring.js';

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

export function apiKeyAuth(keys: ApiKeys, limiter: RateLimiter, access: Access, sessions?: SessionAuthenticator): onRequestHookHandler {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    if (request.method === 'OPTIONS') return;
    const token = bearerToken(request);
    // Without an Authorization header the dashboard's session cookie may stand in for a key.
    const session = token === null && sessions ? await sessions(request) : null;
    if (token === null && session === null) {
      throw new DomainError('api_key_missing', 'No API key provided. Send it as "Authorization: Bearer <key>".');
    }
    let context: ApiKeyContext;
    if (session) {
      context = session.context;
    } else {
      const malformed = malformedAuthorization(request.headers.authorization);
      if (malformed !== null) throw new DomainError('api_key_invalid', malformed);
      const found = await keys.lookup(token!);
      if (!found) throw new DomainError('api_key_invalid', 'The API key is not valid, or it was revoked or has expired.');
      context = found;
    }
    request.api = context;

    const decision = await limiter.consume(context.keyId, context.settings.rate_limit_per_second);
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'Too many requests for this key; wait Retry-After seconds.', undefined, {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
    if (access === 'secret' && context.keyType !== 'secret') {
      throw new DomainError('secret_key_required', 'This operation needs a secret key; a publishable key was sent.');
    }
    if (session?.refuseWrites && !READ_METHODS.has(request.method)) throw session.refuseWrites;
    if (context.readOnly && !READ_METHODS.has(request.method)) {
      throw new DomainError('marketplace_read_only', context.readOnly.message);
    }
  };
}
