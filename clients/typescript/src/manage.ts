// createManagementClient: the /manage/v1 management API (sign up, log in, workspaces,
// marketplaces, their settings and processors, API keys, members), typed from the same document
// as the API client, with the same answers-or-MarketplaceError calls. It authenticates with a
// management token (`mgt_…`, from sign-up or login), or with none for sign-up and login themselves.
// The management API takes no Idempotency-Key: its writes are not retried after a 5xx or a lost
// answer (only a 429, which ran nothing), so a retry never signs up or creates a key twice.
import createFetchClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse } from 'openapi-fetch';
import { retryingFetch, type Fetch } from './retry.js';
import { retryPolicyOf, unwrapping, type ClientOptions, type InitArg, type LooseInit, type Method } from './client.js';
import type { managePaths } from './paths.js';

export interface ManagementClientOptions extends Omit<ClientOptions, 'apiKey'> {
  /** A management token (`mgt_…`: the `token` of sign-up or login); none for sign-up and login. */
  token?: string;
}

type ManageApi = Client<managePaths, 'application/json'>;
/** The management paths that have an operation for `M`. */
export type ManagePathsWith<M extends Method> = ClientPathsWithMethod<ManageApi, M>;
/** What a management call of `M` on `P` takes. */
export type ManageCallInit<M extends Method, P extends ManagePathsWith<M>> = NonNullable<MaybeOptionalInit<managePaths[P], M>>;
/** What a management call of `M` on `P` answers on success. */
export type ManageResponseOf<M extends Method, P extends ManagePathsWith<M>> = MethodResponse<ManageApi, M, P>;

export interface ManagementClient {
  get<P extends ManagePathsWith<'get'>>(path: P, ...init: InitArg<ManageCallInit<'get', P>>): Promise<ManageResponseOf<'get', P>>;
  post<P extends ManagePathsWith<'post'>>(path: P, ...init: InitArg<ManageCallInit<'post', P>>): Promise<ManageResponseOf<'post', P>>;
  patch<P extends ManagePathsWith<'patch'>>(path: P, ...init: InitArg<ManageCallInit<'patch', P>>): Promise<ManageResponseOf<'patch', P>>;
  delete<P extends ManagePathsWith<'delete'>>(path: P, ...init: InitArg<ManageCallInit<'delete', P>>): Promise<ManageResponseOf<'delete', P>>;
  /** The same client with a management token (after sign-up or login). */
  withToken(token: string): ManagementClient;
  /** The openapi-fetch client underneath: its answers are not unwrapped. */
  raw: ManageApi;
}

export function createManagementClient(options: ManagementClientOptions): ManagementClient {
  const baseFetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const raw = createFetchClient<managePaths, 'application/json'>({
    baseUrl: options.baseUrl,
    fetch: retryingFetch(baseFetch, { ...retryPolicyOf(options), retryWrites: false }),
    headers: options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` },
    redirect: 'manual',
  });
  const call = unwrapping(raw);
  return {
    get: (path, ...init) => call('GET', path, init[0] as LooseInit),
    post: (path, ...init) => call('POST', path, init[0] as LooseInit),
    patch: (path, ...init) => call('PATCH', path, init[0] as LooseInit),
    delete: (path, ...init) => call('DELETE', path, init[0] as LooseInit),
    withToken: (token) => createManagementClient({ ...options, token }),
    raw,
  };
}
