// The session cookie's attributes. HttpOnly: page scripts never read it (the CSRF token is what
// they hold). SameSite=Lax: other sites' forms and scripts do not send it (top-level links still
// do, and GETs change nothing). Secure whenever PUBLIC_URL is https, so it never travels in clear.
// The cookie is read here, from the request's Cookie header, only where a session may authenticate:
// no hook parses cookies on every request (the cookie plugin is registered, without its parsing
// hook, on /manage/v1 only, to write Set-Cookie: src/http/app.ts).
import type { CookieSerializeOptions } from '@fastify/cookie';
import { parseCookie } from 'cookie';
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

/**
 * The value of cookie `name` in a Cookie header, or undefined: the first of that name,
 * percent-decoded when it decodes, by the `cookie` package (the parser the cookie plugin uses).
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  return parseCookie(header)[name];
}
