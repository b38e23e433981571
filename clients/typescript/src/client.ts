// createClient: openapi-fetch over the types generated from the service's OpenAPI document, with
// what every caller of the API would otherwise write by hand: the key, an Idempotency-Key on every
// POST, retries (src/retry.ts), answers unwrapped to their data or thrown as MarketplaceError, and
// list iteration over every page.
import createFetchClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse, type Middleware } from 'openapi-fetch';
import { MarketplaceError } from './errors.js';
import { DEFAULT_RETRY_POLICY, retryingFetch, type Fetch, type RetryPolicy } from './retry.js';
import type { ExpandInit, ExpandObject, ExpandPathsOf, Expanded } from './expand.js';
import type { paths } from './paths.js';
import { webhooks, type Webhooks } from './webhooks.js';

export interface ClientOptions {
  /** A secret key (`sk_test_…`, `sk_live_…`), or a publishable key for what it may read. */
  apiKey: string;
  /** Where the service runs, without `/v1`: `https://api.example.com`. */
  baseUrl: string;
  /** The fetch to send with (a proxy, a test double); the global fetch by default. */
  fetch?: Fetch;
  /** Retries after the first attempt of a request (429, 5xx, no answer): 3 by default, 0 for none. */
  maxRetries?: number;
  /** The backoff between retries (Retry-After wins when longer): 500 ms doubling up to 8 s by default. */
  retryDelay?: { initialMs?: number; maxMs?: number };
}

type Api = Client<paths, 'application/json'>;
export type Method = 'get' | 'post' | 'patch' | 'delete';

/** The paths that have an operation for `M`. */
export type PathsWith<M extends Method> = ClientPathsWithMethod<Api, M>;
/** What a call of `M` on `P` takes: `params` (`path`, `query`) and `body`, as the document says. */
export type CallInit<M extends Method, P extends PathsWith<M>> = NonNullable<MaybeOptionalInit<paths[P], M>>;
/** What a call of `M` on `P` answers on success. */
export type ResponseOf<M extends Method, P extends PathsWith<M>> = MethodResponse<Api, M, P>;

/** The init argument: optional when nothing in it is required. */
export type InitArg<Init, Extra = unknown> = Partial<Init> extends Init ? [init?: Init & Extra] : [init: Init & Extra];

/** Options of a POST beyond the document's: the Idempotency-Key to send (a random one otherwise). */
export interface PostOptions {
  idempotencyKey?: string;
}

type Operation<M extends Method, P extends PathsWith<M>> = paths[P] extends Record<M, infer O> ? O : never;
type QueryOf<P extends PathsWith<'get'>> = Operation<'get', P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathParamsOf<P extends PathsWith<'get'>> = Operation<'get', P> extends { parameters: { path?: infer A } } ? A : never;

/** The paths `expand` takes on the GET of `P` (docs/expand.md), or never. */
export type ExpandPath<P extends PathsWith<'get'>> = ExpandPathsOf<QueryOf<P>>;

/** The GET paths that answer a page (`{object: 'list', data, has_more, next_cursor}`) and page with `starting_after`. */
export type ListPath = {
  [P in PathsWith<'get'>]: ResponseOf<'get', P> extends { object: 'list'; data: unknown[]; next_cursor: string | null }
    ? 'starting_after' extends keyof QueryOf<P>
      ? P
      : never
    : never;
}[PathsWith<'get'>];

/** The item of a list path's pages (with the fields `E` expanded as objects, the others as ids). */
export type ListItem<P extends ListPath, E extends string = never> = ResponseOf<'get', P> extends { data: Array<infer T> } ? ExpandObject<T, E> : never;

/** What `list` takes: the query without the cursor, and the path's parameters when it has some. */
export type ListOptions<P extends ListPath> = { query?: Omit<QueryOf<P>, 'starting_after'> } & ([PathParamsOf<P>] extends [never | undefined]
  ? { path?: never }
  : { path: PathParamsOf<P> });

export interface MarketplaceClient {
  /**
   * The answer of a GET, typed by the `expand` asked for: an expandable field is the object where
   * `params.query.expand` names it, the id elsewhere.
   */
  get<P extends PathsWith<'get'>, const E extends ExpandPath<P> = never>(
    path: P,
    ...init: InitArg<CallInit<'get', P> & ExpandInit<E>>
  ): Promise<Expanded<ResponseOf<'get', P>, E>>;
  /** Sends an Idempotency-Key (init.idempotencyKey, or a random one) and keeps it across retries. */
  post<P extends PathsWith<'post'>>(path: P, ...init: InitArg<CallInit<'post', P>, PostOptions>): Promise<ResponseOf<'post', P>>;
  patch<P extends PathsWith<'patch'>>(path: P, ...init: InitArg<CallInit<'patch', P>>): Promise<ResponseOf<'patch', P>>;
  delete<P extends PathsWith<'delete'>>(path: P, ...init: InitArg<CallInit<'delete', P>>): Promise<ResponseOf<'delete', P>>;
  /** Every item of a list, page after page (`for await (const order of client.list('/v1/orders'))`), typed by `query.expand`. */
  list<P extends ListPath, const E extends ExpandPath<P> = never>(
    path: P,
    ...options: InitArg<ListOptions<P> & { query?: { expand?: E | readonly E[] } }>
  ): AsyncGenerator<ListItem<P, E>, void, undefined>;
  /** Webhook verification (also exported on its own, for receivers without a key). */
  webhooks: Webhooks;
  /** The openapi-fetch client underneath, with the same key, Idempotency-Keys, retries and fetch: its answers are not unwrapped. */
  raw: Api;
}

type LooseRequest = (method: string, path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
export type LooseInit = { headers?: Record<string, string>; params?: { query?: Record<string, unknown>; path?: Record<string, unknown> }; idempotencyKey?: string } & Record<string, unknown>;

/**
 * A random Idempotency-Key on every POST that has none. Set on the request before the retrying
 * fetch sees it, so every retry of the POST sends the same key.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
    }
    return request;
  },
};

/** The retry policy of a client's options. */
export function retryPolicyOf(options: Pick<ClientOptions, 'maxRetries' | 'retryDelay'>): RetryPolicy {
  return {
    ...DEFAULT_RETRY_POLICY,
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    initialDelayMs: options.retryDelay?.initialMs ?? DEFAULT_RETRY_POLICY.initialDelayMs,
    maxDelayMs: options.retryDelay?.maxMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
}

/** Calls through an openapi-fetch client that answer the data, or throw MarketplaceError. */
export function unwrapping(raw: { request: unknown }): (method: Uppercase<Method>, path: string, init?: LooseInit) => Promise<never> {
  const send = raw.request as unknown as LooseRequest;
  return async function call(method, path, init = {}) {
    const { idempotencyKey, ...rest } = init;
    const headers = idempotencyKey === undefined ? rest.headers : { ...rest.headers, 'Idempotency-Key': idempotencyKey };
    let answer: Awaited<ReturnType<LooseRequest>>;
    try {
      answer = await send(method, path, { ...rest, headers });
    } catch (cause) {
      throw MarketplaceError.fromNetwork(cause);
    }
    if (!answer.response.ok) throw MarketplaceError.fromResponse(answer.response, answer.error);
    return answer.data as never;
  };
}

export function createClient(options: ClientOptions): MarketplaceClient {
  const baseFetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const raw = createFetchClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    fetch: retryingFetch(baseFetch, retryPolicyOf(options)),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    // Redirects are not part of the API: one is an answer to see, not to follow with the key.
    redirect: 'manual',
  });
  raw.use(idempotencyKeys);
  const call = unwrapping(raw);

  async function* list(path: string, listOptions: { query?: Record<string, unknown>; path?: Record<string, unknown> } = {}) {
    let cursor: string | undefined;
    do {
      const query = { ...listOptions.query, ...(cursor === undefined ? {} : { starting_after: cursor }) };
      const page = (await call('GET', path, { params: { query, path: listOptions.path } })) as { data: unknown[]; has_more: boolean; next_cursor: string | null };
      yield* page.data;
      cursor = page.has_more && page.next_cursor !== null ? page.next_cursor : undefined;
    } while (cursor !== undefined);
  }

  return {
    get: ((path: string, ...init: unknown[]) => call('GET', path, init[0] as LooseInit)) as MarketplaceClient['get'],
    post: (path, ...init) => call('POST', path, init[0] as LooseInit),
    patch: (path, ...init) => call('PATCH', path, init[0] as LooseInit),
    delete: (path, ...init) => call('DELETE', path, init[0] as LooseInit),
    list: ((path: string, ...rest: Array<{ query?: Record<string, unknown>; path?: Record<string, unknown> }>) => list(path, rest[0])) as MarketplaceClient['list'],
    webhooks,
    raw,
  };
}
