// The contexts operations run in, one per kind of caller. A /v1 request carries an
// OperationContext (its marketplace, mode and key kind, built from the authenticated API key); a
// /manage/v1 request the ServiceContext, or a UserContext once its user is known; pages outside
// both (the simulated processor's) the ServiceContext. Operations take their context first, then
// their input, and nothing else of HTTP: the same call serves a route, a worker or a test.
// Every context is Deps (src/contracts/deps.ts): the database, the clock, the configuration and the
// hooks the composition root (src/app/) wired.
import type { Scope } from '../scope.js';
import type { Deps } from './deps.js';
import type { Settings } from './settings.js';

/** Who reads through /v1: a secret key, or a publishable key (which sees public objects only). */
export type Viewer = 'secret' | 'publishable';

/** A workspace's standing with billing (accounts: workspaces.billing_state). */
export type BillingState = 'active' | 'payment_missed' | 'suspended';

export interface ReadOnlyReason {
  reason: 'payment_missed' | 'workspace_suspended';
  message: string;
}

/** What an authenticated API key stands for (src/http/api-key-cache.ts finds and caches it). */
export interface ApiKeyContext {
  keyId: string;
  keyType: Viewer;
  expiresAtMs: number | null;
  scope: Scope;
  workspaceId: string;
  billingState: BillingState;
  marketplace: { id: string; name: string; currency: string; created_at: string };
  settings: Settings;
  readOnly: ReadOnlyReason | null;
}

export interface OperationContext extends Deps {
  /** The marketplace and mode every query of the operation is scoped by. */
  readonly scope: Scope;
  /** The marketplace currency, upper case: every price is in it. */
  readonly currency: string;
  readonly viewer: Viewer;
}

/** An operation without a tenant or user yet (sign-up, login, the operator's): the service itself. */
export interface ServiceContext extends Deps {
  /** Cached API-key contexts carry settings and billing state: a change to those clears the cache. */
  readonly apiKeys: { invalidate(): void };
}

/** The authenticated user of a management request (a Bearer management token or a dashboard session). */
export interface Principal {
  userId: string;
  email: string;
}

/** A management operation on behalf of a signed-in user. */
export interface UserContext extends ServiceContext {
  readonly principal: Principal;
}

