// What a module declares (ModuleManifest, in its module.ts) and what the composition root builds
// from every manifest (Wiring, src/app/wiring.ts), with the Services that carry it to the API, the
// worker and the test clock alike. Nothing registers itself: a list here is filled only by the root.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ClockAdvanceHook, CounterSource, JobKind, PeriodicJob, TimerHandlers, WorkerComponent, WorkStatsSource } from './background.js';
import type { ApiKeyContext } from './context.js';
import type { Deps, Hooks } from './deps.js';
import type { ErrorCode } from '../errors.js';
import type { ErasureParticipant } from './erasure.js';
import type { ExpandableObject, ExpandableObjects } from './expansion.js';
import type { EventGroup, EventSubscriber } from './events.js';
import type { IdPrefixTable } from '../ids.js';
import type { ModerationTarget, TargetType } from './moderation.js';

/** The typed Fastify instance every route module registers on. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A module's routes, registered inside one auth scope. */
export type RouteModule = (app: App, services: Services) => void | Promise<void>;

/** API keys by their secret text, cached (src/http/api-key-cache.ts). */
export interface ApiKeys {
  /** Answered at once (no promise) when the cache holds the key: the hot path of every /v1 request. */
  lookup(key: string): ApiKeyContext | null | Promise<ApiKeyContext | null>;
  /** Cached key contexts carry settings and billing state: a change to those clears the cache. */
  invalidate(): void;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a token is there again; at least 1. */
  retryAfterSeconds: number;
}

/** Token buckets per key (src/http/rate-limit.ts: in memory, or Redis shared by every process). */
export interface RateLimiter {
  /** An in-process limiter answers at once (no promise); a shared one (Redis) asynchronously. */
  consume(bucket: string, ratePerSecond: number): RateDecision | Promise<RateDecision>;
  close(): Promise<void>;
}

/** Test hooks that make a failure happen at a chosen point. */
export interface IdempotencyFaults {
  /** Throws after the change committed and before the answer is sent. */
  afterCommit?: (request: FastifyRequest) => void;
}

/**
 * The flows (src/flows/) that routes of the modules start: a module cannot import a flow (flows
 * import modules), so the root hands them to its routes with the services. Empty here:
 * src/flows/index.ts declares its members by declaration merging, so this layer names no flow.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Flows {}

/** One process's services: what a route is registered with. */
export interface Services extends Deps {
  readonly flows: Flows;
  readonly apiKeys: ApiKeys;
  readonly rateLimiter: RateLimiter;
  readonly faults: IdempotencyFaults;
  readonly wiring: Wiring;
}

/** The auth scopes a route can live in (src/app/routes.ts mounts them). */
export interface RouteScopes {
  /** /v1 operations a publishable key may call (answer browsers from any origin). */
  publishable: readonly RouteModule[];
  /** /v1 operations that need a secret key. */
  secret: readonly RouteModule[];
  /** /manage/v1 without authentication (sign-up, login, password reset, accepting an invitation). */
  managePublic: readonly RouteModule[];
  /** /manage/v1 for the operator (OPERATOR_TOKEN). */
  manageOperator: readonly RouteModule[];
  /** /manage/v1 for the dashboard's session cookie only. */
  manageSession: readonly RouteModule[];
  /** /manage/v1 for a signed-in user (a Bearer management token or the dashboard's session). */
  manageSignedIn: readonly RouteModule[];
  /** Outside /v1 and /manage/v1 (dashboard, simulated processor pages, uploads, processor webhooks). */
  root: readonly RouteModule[];
}

/** A module's error codes with their HTTP statuses, declared `as const` in its folder (its declarations.ts). */
export type ErrorStatusTable = Readonly<Record<string, number>>;

/** A table's codes as entries of ModuleErrorCodes (src/errors.ts): `interface ModuleErrorCodes extends CodesOf<typeof TABLE> {}`. */
export type CodesOf<T extends ErrorStatusTable> = { readonly [K in keyof T]: true };

/** Every error code with its status, in the order of the document's enums: by status, the kernel's first. */
export type ErrorStatuses = Readonly<Record<ErrorCode, number>>;

/**
 * A group of operations in the OpenAPI document's reference. The document lists the tags by rank,
 * lowest first (ranks are spaced by 10, so a new tag goes between two without moving them).
 */
export interface OpenApiTag {
  name: string;
  description: string;
  rank: number;
}

/**
 * A module's erasure participant and its place: it runs after the participants it names (by
 * their names), and otherwise in the order of the modules (src/app/modules.ts). Every participant
 * erases records before any redacts copies (src/contracts/erasure.ts), so `after` is for records
 * whose locks must be taken in an order.
 */
export interface ErasurePlace {
  participant: ErasureParticipant;
  after?: readonly string[];
}

/** What one module declares; every field but the name is optional. */
export interface ModuleManifest {
  name: string;
  /**
   * The tables the module owns (none when absent): only its own statements read or write them;
   * another module asks its index.ts (test/architecture/table-owners.test.ts checks every
   * statement of src/, and that every table has exactly one owner).
   */
  tables?: readonly string[];
  routes?: Partial<RouteScopes>;
  timers?: TimerHandlers;
  jobKinds?: readonly JobKind[];
  periodic?: readonly PeriodicJob[];
  components?: readonly WorkerComponent[];
  workStats?: readonly WorkStatsSource[];
  /** Counters of GET /metrics read from the database at each scrape. */
  counters?: readonly CounterSource[];
  clockAdvanceHooks?: readonly ClockAdvanceHook[];
  /** Work written with every event, in the event's transaction (webhook deliveries). */
  eventSubscribers?: readonly EventSubscriber[];
  erasure?: ErasurePlace;
  moderationTargets?: Partial<Record<TargetType, ModerationTarget>>;
  /** Its objects that `expand[]` can put in place of their ids (src/contracts/expansion.ts). */
  expandable?: readonly ExpandableObject[];
  /** The prefixes of its resources' ids, by kind (the kernel's are src/ids.ts's). */
  idPrefixes?: IdPrefixTable;
  /** Its event types, by the object they carry, with their catalog entries. */
  eventTypes?: readonly EventGroup[];
  /** Its own error codes with their HTTP statuses (the kernel's are src/errors.ts's). */
  errorCodes?: ErrorStatusTable;
  /** Its groups of operations in the OpenAPI document. */
  tags?: readonly OpenApiTag[];
}

/** Everything the root assembled: one object, handed to the API, the worker and the test clock. */
export interface Wiring extends Hooks {
  readonly routes: RouteScopes;
  readonly timers: TimerHandlers;
  readonly jobKinds: readonly JobKind[];
  readonly periodic: readonly PeriodicJob[];
  readonly components: readonly WorkerComponent[];
  readonly workStats: readonly WorkStatsSource[];
  readonly counters: readonly CounterSource[];
  readonly clockAdvanceHooks: readonly ClockAdvanceHook[];
  readonly eventSubscribers: readonly EventSubscriber[];
  /** Every module's expandable objects, by name. */
  readonly expandable: ExpandableObjects;
  /** Every error code with its HTTP status: the kernel's and the modules'. */
  readonly errorStatuses: ErrorStatuses;
  /** The OpenAPI document's tags, by rank. */
  readonly tags: readonly OpenApiTag[];
  /** Every id kind with its prefix: the kernel's and the modules' (installed in src/ids.ts). */
  readonly idPrefixes: IdPrefixTable;
}
