// Dashboard sessions for the tests: log in through POST /manage/v1/sessions and make requests the
// way the browser does (the cookie, the CSRF token, no Authorization).
import { expect } from 'vitest';
import type { RequestOptions, TestContext, TestResponse } from '../../helpers/harness.js';

export interface BrowserSession {
  cookie: string;
  csrf: string;
  userId: string;
}

/** The Set-Cookie header of a response, as one string. */
export function setCookieOf(res: TestResponse): string {
  const header = res.headers['set-cookie'];
  return Array.isArray(header) ? header.join('\n') : String(header ?? '');
}

export async function logIn(ctx: TestContext, credentials: { email: string; password: string }): Promise<BrowserSession> {
  const res = await ctx.request('/manage/v1/sessions', { key: null, body: credentials });
  expect(res.status).toBe(200);
  const match = /mb_session=([^;]+)/.exec(setCookieOf(res));
  expect(match).not.toBeNull();
  return { cookie: `mb_session=${match![1]}`, csrf: res.body.csrf_token, userId: res.body.user.id };
}

/** A request as the dashboard makes it: the cookie, and the CSRF token unless `csrf: false`. */
export function asBrowser(
  ctx: TestContext,
  session: BrowserSession,
  url: string,
  options: RequestOptions & { csrf?: boolean } = {},
): Promise<TestResponse> {
  const { csrf = true, headers, ...rest } = options;
  return ctx.request(url, {
    ...rest,
    key: null,
    headers: { cookie: session.cookie, ...(csrf ? { 'x-csrf-token': session.csrf } : {}), ...headers },
  });
}

/** The headers that make a /v1 request act on a marketplace's mode as the signed-in member. */
export function dashboardHeaders(marketplaceId: string, mode: 'test' | 'live'): Record<string, string> {
  return { 'dashboard-marketplace': marketplaceId, 'dashboard-mode': mode };
}
