// The session cookie's attributes. HttpOnly: page scripts never read it (the CSRF token is what
// they hold). SameSite=Lax: other sites' forms and scripts do not send it (top-level links still
// do, and GETs change nothing). Secure whenever PUBLIC_URL is https, so it never travels in clear.
// The cookie is read here, from the request's Cookie header, only where a session may authenticate:
// no hook parses cookies on every request (the cookie plugin is registered, without its parsing
// hook, on /manage/v1 only, to write Set-Cookie: src/http/app.ts).
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

/**
 * The value of cookie `name` in a Cookie header, or undefined: the first of that name (a browser
 * sends the most specific path first), percent-decoded when it decodes, as @fastify/cookie's parser does.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    if (!value.includes('%')) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
