// Authentication of /manage/v1. A request names its user by one of several credentials: a Bearer
// management token (mgt_…), or the dashboard's session cookie (src/modules/dashboard, a resolver
// given by the wiring in src/modules/manage), each giving the same Principal. Missing and invalid credentials are both 401 authentication_required,
// with messages that tell them apart. The operator API has its own credential: OPERATOR_TOKEN.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.js';
import { DomainError } from '../../errors.js';
import { bearerToken } from '../../http/api-auth.js';
import { sha256Hex } from '../../secrets.js';
import type { ServiceContext } from '../../contracts/context.js';
import type { Principal } from './access.js';
import { principalForToken } from './tokens.js';

type AuthDeps = Pick<ServiceContext, 'db' | 'clock' | 'config'>;

/**
 * Resolves one kind of credential: null when the request does not carry it, 'invalid' when it
 * does but it is unknown or expired, else the user.
 */
export type CredentialResolver = (request: FastifyRequest, deps: AuthDeps) => Promise<Principal | 'invalid' | null>;

export const bearerManagementToken: CredentialResolver = async (request, deps) => {
  const token = bearerToken(request);
  if (token === null) return null;
  if (token === '') return 'invalid';
  return (await principalForToken(deps.db, deps.clock, token)) ?? 'invalid';
};

/** The user behind the request, by the first credential it carries. */
export async function authenticateUser(
  request: FastifyRequest,
  deps: AuthDeps,
  resolvers: readonly CredentialResolver[] = [bearerManagementToken],
): Promise<Principal> {
  for (const resolve of resolvers) {
    const found = await resolve(request, deps);
    if (found === null) continue;
    if (found === 'invalid') {
      throw new DomainError('authentication_required', 'The management token is not valid, or it has expired or was revoked. Log in again.');
    }
    return found;
  }
  throw new DomainError('authentication_required', 'Authenticate with "Authorization: Bearer <management token>" (from signup or login).');
}

/** Authenticates the user of every request of a scope and gives the request its UserContext. */
export function requireUser(service: ServiceContext, resolvers?: readonly CredentialResolver[]): onRequestHookHandler {
  return async function authenticate(request) {
    request.user = { ...service, principal: await authenticateUser(request, service, resolvers) };
  };
}

const digest = (text: string): Buffer => Buffer.from(sha256Hex(text), 'hex');

/**
 * The operator API exists only when OPERATOR_TOKEN is set: otherwise it answers like an unknown
 * URL. The token is compared in constant time (over digests, so lengths do not leak either).
 */
export function requireOperator(config: Config): onRequestHookHandler {
  return async function authenticateOperator(request) {
    if (config.operatorToken === null) {
      throw new DomainError('resource_missing', `Unrecognized request URL (${request.method} ${request.url.split('?')[0]}).`);
    }
    const token = bearerToken(request);
    if (token === null) throw new DomainError('authentication_required', 'Authenticate with "Authorization: Bearer <OPERATOR_TOKEN>".');
    if (!timingSafeEqual(digest(token), digest(config.operatorToken))) {
      throw new DomainError('authentication_required', 'The operator token is not valid.');
    }
  };
}
