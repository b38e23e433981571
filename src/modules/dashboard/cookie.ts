// The session cookie's attributes. HttpOnly: page scripts never read it (the CSRF token is what
// they hold). SameSite=Lax: other sites' forms and scripts do not send it (top-level links still
// do, and GETs change nothing). Secure whenever PUBLIC_URL is https, so it never travels in clear.
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../../config.js';
import { SESSION_LIFETIME_MS } from './sessions.js';

export function sessionCookieOptions(config: Config): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: new URL(config.publicUrl).protocol === 'https:',
    maxAge: SESSION_LIFETIME_MS / 1000,
  };
}

/** The same attributes, so the browser matches and drops the cookie. */
export function clearedCookieOptions(config: Config): CookieSerializeOptions {
  const options = sessionCookieOptions(config);
  delete options.maxAge;
  return options;
}
