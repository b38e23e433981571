// The one API client of the dashboard: openapi-fetch over the types generated from the service's
// own OpenAPI document (schema.d.ts, `npm run dashboard:schema`). The browser holds no API key: it
// sends the HttpOnly session cookie, the CSRF token on every write, and on /v1 the marketplace and
// mode it acts on (docs/dashboard.md).
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

export type Mode = 'test' | 'live';

export const context: { csrfToken: string | null; marketplace: string | null; mode: Mode; onUnauthorized: () => void } = {
  csrfToken: null,
  marketplace: null,
  mode: 'test',
  onUnauthorized: () => undefined,
};

const dashboardHeaders: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && context.csrfToken) {
      request.headers.set('X-CSRF-Token', context.csrfToken);
    }
    const path = new URL(request.url).pathname;
    if (path.startsWith('/v1/') && context.marketplace) {
      request.headers.set('Dashboard-Marketplace', context.marketplace);
      request.headers.set('Dashboard-Mode', context.mode);
    }
    return request;
  },
  onResponse({ response, request }) {
    const path = new URL(request.url).pathname;
    if (response.status === 401 && !path.startsWith('/manage/v1/session')) context.onUnauthorized();
    return response;
  },
};

/** An expandable field's id: the API answers the id, or the object when asked with `expand[]` (docs/expand.md). */
export function idOf<T extends string | null>(field: T | { id: string }): T | string {
  return typeof field === 'object' && field !== null ? field.id : field;
}

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(dashboardHeaders);

/** The service's error envelope. */
export interface ApiError {
  code: string;
  message: string;
  param?: string | null;
  request_id?: string;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError,
  ) {
    super(error.message);
  }
}

/** Unwraps an openapi-fetch answer: its data, or throws ApiFailure with the error envelope. */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await pending;
  } catch (cause) {
    throw new ApiFailure(0, { code: 'network_error', message: cause instanceof Error ? cause.message : 'The service could not be reached.' });
  }
  if (result.response.ok) return result.data as T;
  const envelope = result.error as { error?: ApiError } | undefined;
  throw new ApiFailure(result.response.status, envelope?.error ?? { code: 'http_error', message: `The service answered ${result.response.status}.` });
}

export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}
