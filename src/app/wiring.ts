// The composition root's one assembly: every module's manifest (modules.ts) and the adapters,
// gathered into the Wiring that the API, the worker and the test clock are all handed
// (src/contracts/wiring.ts). Nothing else in the service keeps a list of modules' parts. A manifest
// that breaks the assembly (two providers of one hook, a timer kind declared twice, an erasure
// participant with no place in the order) stops the start with an error naming it.
import type { Config } from '../config.js';
import type { ClockAdvanceHook, PeriodicJob, TimerHandlers } from '../contracts/background.js';
import type { ErasureParticipant } from '../contracts/erasure.js';
import type { ExpandableObject, ExpandableObjects } from '../contracts/expansion.js';
import { TARGET_TYPES, type ModerationTarget, type ModerationTargets, type TargetType } from '../contracts/moderation.js';
import type { ProcessorDriver, Provider } from '../contracts/processor.js';
import type { StorageDriver } from '../contracts/storage.js';
import type { ModuleManifest, RouteScopes, Wiring } from '../contracts/wiring.js';
import { simulatedProcessor } from '../adapters/processors/simulated.js';
import { stripeProcessor } from '../adapters/processors/stripe.js';
import { LocalStorage } from '../adapters/storage/local.js';
import { S3Storage } from '../adapters/storage/s3.js';
import { purgeIdempotencyKeys } from '../http/idempotency.js';
import { storedAnswersErasure } from '../http/stored-answers.js';
import { notifyJobs } from '../workers/wake.js';
import { MODULES } from './modules.js';

/**
 * The order erasure runs its participants in, by name: records first (the seller's onboarding
 * links, verifications, orders, listings), then copies. Orders come before listings and reviews:
 * an order move locks its order, then its listing, and a review locks its order first, so erasure
 * takes the orders' locks before theirs too. Stored answers (src/http) are the root's own.
 */
const ERASURE_ORDER = [
  'onboarding links',
  'verifications',
  'orders and disputes',
  'listings',
  'reviews',
  'media',
  'flags',
  // (Webhook deliveries keep no copy of an event's body: erasing the stored events reaches them.)
  'stored events',
  'stored answers',
] as const;

const PROCESSORS: Readonly<Record<Provider, ProcessorDriver>> = { simulated: simulatedProcessor, stripe: stripeProcessor };

/** Work of the service itself, beside the modules': machinery in src/http and src/workers. */
const ROOT_PERIODIC: readonly PeriodicJob[] = [
  { name: 'purge_idempotency_keys', everyMs: 60 * 60 * 1000, run: (deps) => purgeIdempotencyKeys(deps.db, deps.clock.nowMs()) },
];
const ROOT_CLOCK_HOOKS: readonly ClockAdvanceHook[] = [
  // Jobs on the mode's clock (webhook retries) that the advance made due start at once, in every
  // worker process, instead of at their next poll.
  { name: 'wake_jobs', run: (deps) => notifyJobs(deps.db, deps.background.wakeUps, '') },
];

class WiringError extends Error {}

function routesOf(modules: readonly ModuleManifest[]): RouteScopes {
  const scope = (name: keyof RouteScopes) => modules.flatMap((module) => module.routes?.[name] ?? []);
  return {
    publishable: scope('publishable'),
    secret: scope('secret'),
    managePublic: scope('managePublic'),
    manageOperator: scope('manageOperator'),
    manageSession: scope('manageSession'),
    manageSignedIn: scope('manageSignedIn'),
    root: scope('root'),
  };
}

function timersOf(modules: readonly ModuleManifest[]): TimerHandlers {
  const timers: TimerHandlers = {};
  for (const module of modules) {
    for (const [kind, handler] of Object.entries(module.timers ?? {})) {
      if (kind in timers) throw new WiringError(`timer kind '${kind}' is declared twice (again by ${module.name})`);
      timers[kind] = handler;
    }
  }
  return timers;
}

function erasureOf(modules: readonly ModuleManifest[]): ErasureParticipant[] {
  const participants = [storedAnswersErasure, ...modules.flatMap((module) => (module.erasure ? [module.erasure] : []))];
  for (const participant of participants) {
    if (!(ERASURE_ORDER as readonly string[]).includes(participant.name)) {
      throw new WiringError(`erasure participant '${participant.name}' has no place in ERASURE_ORDER (src/app/wiring.ts)`);
    }
  }
  return ERASURE_ORDER.flatMap((name) => participants.filter((participant) => participant.name === name));
}

function moderationTargetsOf(modules: readonly ModuleManifest[]): ModerationTargets {
  const targets: Partial<Record<TargetType, ModerationTarget>> = {};
  for (const module of modules) {
    for (const [type, target] of Object.entries(module.moderationTargets ?? {}) as [TargetType, ModerationTarget][]) {
      if (targets[type]) throw new WiringError(`moderation target '${type}' is declared twice (again by ${module.name})`);
      targets[type] = target;
    }
  }
  const missing = TARGET_TYPES.filter((type) => !targets[type]);
  if (missing.length > 0) throw new WiringError(`no module declares the moderation target(s) ${missing.join(', ')}`);
  return targets as ModerationTargets;
}

/** The expandable objects by name; an object declared twice, or a field naming no object, stops the start. */
function expandableOf(modules: readonly ModuleManifest[]): ExpandableObjects {
  const objects: Record<string, ExpandableObject> = {};
  for (const module of modules) {
    for (const expandable of module.expandable ?? []) {
      if (objects[expandable.object]) throw new WiringError(`expandable object '${expandable.object}' is declared twice (again by ${module.name})`);
      objects[expandable.object] = expandable;
    }
  }
  for (const expandable of Object.values(objects)) {
    for (const [field, target] of Object.entries(expandable.fields)) {
      if (!objects[target]) throw new WiringError(`${expandable.object}.${field} expands to '${target}', which no module declares`);
    }
  }
  return objects;
}

/** The one module's implementation of a provided hook; none or two is an error. */
function providedOf<K extends keyof NonNullable<ModuleManifest['provides']>>(
  modules: readonly ModuleManifest[],
  hook: K,
): NonNullable<NonNullable<ModuleManifest['provides']>[K]> {
  const found = modules.flatMap((module) => {
    const provided = module.provides?.[hook];
    return provided ? [{ module: module.name, provided }] : [];
  });
  if (found.length !== 1) {
    throw new WiringError(`exactly one module must provide the ${hook} hooks; found ${found.map((f) => f.module).join(', ') || 'none'}`);
  }
  return found[0]!.provided!;
}

/** The file storage of this configuration (STORAGE): local disk or S3. */
export function storageOf(config: Config): StorageDriver {
  return config.storage.kind === 's3' ? new S3Storage(config.storage) : new LocalStorage(config);
}

/** Builds the one Wiring of a process from the modules (all of them unless a test passes its own). */
export function buildWiring(config: Config, modules: readonly ModuleManifest[] = MODULES): Wiring {
  const all = <T>(pick: (module: ModuleManifest) => readonly T[] | undefined): T[] => modules.flatMap((module) => pick(module) ?? []);
  return {
    routes: routesOf(modules),
    timers: timersOf(modules),
    jobKinds: all((module) => module.jobKinds),
    periodic: [...ROOT_PERIODIC, ...all((module) => module.periodic)],
    components: all((module) => module.components),
    workStats: all((module) => module.workStats),
    counters: all((module) => module.counters),
    clockAdvanceHooks: [...ROOT_CLOCK_HOOKS, ...all((module) => module.clockAdvanceHooks)],
    eventSubscribers: all((module) => module.eventSubscribers),
    expandable: expandableOf(modules),
    erasure: erasureOf(modules),
    moderationTargets: moderationTargetsOf(modules),
    orderPayments: providedOf(modules, 'orderPayments'),
    listings: providedOf(modules, 'listings'),
    processors: PROCESSORS,
    storage: storageOf(config),
  };
}
