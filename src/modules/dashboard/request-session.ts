// The session cookie on a request: found, checked against CSRF, and kept on the request for the
// session routes. One function serves both places the cookie authenticates: /manage/v1 (as a
// CredentialResolver, beside Bearer management tokens) and /v1 (as the signed-in member).
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../errors.js';
import type { CredentialResolver } from '../accounts/index.js';
import { cookieValue } from './cookie.js';
import { csrfTokenMatches, findSession, SESSION_COOKIE, type ActiveSession, type SessionDeps } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request was authenticated by the dashboard session cookie. */
    dashboardSession?: ActiveSession;
  }
}

export const CSRF_HEADER = 'X-CSRF-Token';

/** Reads never change anything, so only they go without the CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The request's session: null without the cookie; 401 authentication_required when the cookie
 * names no live session; 403 csrf_token_invalid when a state-changing request lacks the
 * session's X-CSRF-Token (a cookie is sent by the browser whoever wrote the page; the header
 * only by a page that could read the token, i.e. our own).
 */
export async function sessionOfRequest(request: FastifyRequest, deps: SessionDeps): Promise<ActiveSession | null> {
  const token = cookieValue(request.headers.cookie, SESSION_COOKIE);
  if (token === undefined || token === '') return null;
  const session = await findSession(deps, token);
  if (!session) {
    throw new DomainError(
      'authentication_required',
      'The dashboard session has ended (logged out, 12 hours without use, or 7 days old, or the password was reset). Log in again.',
    );
  }
  if (!SAFE_METHODS.has(request.method)) {
    const sent = request.headers[CSRF_HEADER.toLowerCase()];
    if (!csrfTokenMatches(session, typeof sent === 'string' ? sent : undefined)) {
      throw new DomainError(
        'csrf_token_invalid',
        `A request that changes something must send the session's csrf_token (from POST /manage/v1/sessions or GET /manage/v1/session) in the ${CSRF_HEADER} header.`,
        CSRF_HEADER,
      );
    }
  }
  request.dashboardSession = session;
  return session;
}

/** The session cookie as a credential of /manage/v1, after Bearer management tokens. */
export const dashboardSessionCookie: CredentialResolver = async (request, deps) => {
  const session = await sessionOfRequest(request, deps);
  return session ? { userId: session.userId, email: session.email } : null;
};
