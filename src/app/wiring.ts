// The composition root's one assembly: every module's manifest (modules.ts) and the adapters,
// gathered into the Wiring that the API, the worker and the test clock are all handed
// (src/contracts/wiring.ts). Nothing else in the service keeps a list of modules' parts. A manifest
// that breaks the assembly (two providers of one hook, a timer kind, error code, id prefix, event
// type or OpenAPI tag declared twice, an erasure participant after one nobody declares) stops the
// start with an error naming it.
import type { Config } from '../config.js';
import type { ClockAdvanceHook, PeriodicJob, TimerHandlers } from '../contracts/background.js';
import type { ErasureParticipant } from '../contracts/erasure.js';
import type { EventCatalog, EventGroup, EventType, EventTypeEntry } from '../contracts/events.js';
import type { ExpandableObject, ExpandableObjects } from '../contracts/expansion.js';
import { TARGET_TYPES, type ModerationTarget, type ModerationTargets, type TargetType } from '../contracts/moderation.js';
import type { ProcessorDriver, Provider } from '../contracts/processor.js';
import type { StorageDriver } from '../contracts/storage.js';
import type { ErasurePlace, ErrorStatuses, ModuleManifest, OpenApiTag, RouteScopes, Wiring } from '../contracts/wiring.js';
import { KERNEL_ERROR_CODES } from '../errors.js';
import { installIdPrefixes, KERNEL_ID_PREFIXES, type IdPrefixTable } from '../ids.js';
import { STATUS_BY_CODE } from '../http/error-statuses.js';
import { smtpTransport } from '../adapters/email/smtp.js';
import { simulated, simulatedPageRoutes, simulatedProcessor } from '../adapters/processors/simulated/index.js';
import { stripeEvents } from '../adapters/processors/stripe-events.js';
import { stripeProcessor } from '../adapters/processors/stripe.js';
import { LocalStorage } from '../adapters/storage/local.js';
import { S3Storage } from '../adapters/storage/s3.js';
import { onboardingPageSide } from '../modules/onboarding/index.js';
import { checkoutPageSide } from '../modules/payments/index.js';
import { FLOWS } from '../flows/index.js';
import { purgeIdempotencyKeys } from '../http/idempotency.js';
import { storedAnswersErasure } from '../http/stored-answers.js';
import { notifyJobs } from '../workers/wake.js';
import { MODULES } from './modules.js';

/** Stored answers of idempotent requests (src/http): the root's own participant, after the modules'. */
const ROOT_ERASURE: ErasurePlace = { participant: storedAnswersErasure };

const PROCESSORS: Readonly<Record<Provider, ProcessorDriver>> = { simulated: simulatedProcessor, stripe: stripeProcessor };

/**
 * Routes of the adapters: the simulated processor's hosted pages, on the payments and onboarding
 * modules' sides; the checkout page's Pay and Decline are settled by the flow (src/flows/), and the
 * onboarding page's Complete enables the payouts by its flow.
 */
const ADAPTER_ROUTES = simulatedPageRoutes({ checkout: checkoutPageSide(FLOWS.settleProcessorReport), onboarding: onboardingPageSide(FLOWS.enableSellerPayouts) });

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
    root: [...scope('root'), ...ADAPTER_ROUTES],
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

/** A participant that erases no record of its own, only copies (stored events, stored answers). */
const keepsCopiesOnly = (place: ErasurePlace) => !place.participant.eraseSeller && !place.participant.eraseBuyer;

/**
 * The erasure participants in the order they run: those that erase records before those that keep
 * only copies; each after the participants its place names; otherwise in the order of the modules,
 * the root's stored answers (src/http) last. A name declared twice, an `after` naming nobody, or a
 * circle stops the start.
 */
function erasureOf(modules: readonly ModuleManifest[]): ErasureParticipant[] {
  const declared: ErasurePlace[] = [...modules.flatMap((module) => (module.erasure ? [module.erasure] : [])), ROOT_ERASURE];
  const places = [...declared.filter((place) => !keepsCopiesOnly(place)), ...declared.filter(keepsCopiesOnly)];
  const byName = new Map<string, ErasurePlace>();
  for (const place of places) {
    if (byName.has(place.participant.name)) throw new WiringError(`erasure participant '${place.participant.name}' is declared twice`);
    byName.set(place.participant.name, place);
  }
  for (const place of places) {
    for (const name of place.after ?? []) {
      if (!byName.has(name)) throw new WiringError(`erasure participant '${place.participant.name}' runs after '${name}', which no module declares`);
    }
  }
  const ordered: ErasureParticipant[] = [];
  const placed = new Set<string>();
  while (ordered.length < places.length) {
    const next = places.find((place) => !placed.has(place.participant.name) && (place.after ?? []).every((name) => placed.has(name)));
    if (!next) {
      const left = places.filter((place) => !placed.has(place.participant.name)).map((place) => place.participant.name);
      throw new WiringError(`erasure participants ${left.join(', ')} each run after another of them (a circle)`);
    }
    ordered.push(next.participant);
    placed.add(next.participant.name);
  }
  return ordered;
}

/** Every error code with its status, by status, the kernel's first; a code declared twice stops the start. */
function errorStatusesOf(modules: readonly ModuleManifest[]): ErrorStatuses {
  const declared = new Map<string, { status: number; by: string }>(KERNEL_ERROR_CODES.map((code) => [code, { status: STATUS_BY_CODE[code], by: 'the kernel (src/errors.ts)' }]));
  for (const module of modules) {
    for (const [code, status] of Object.entries(module.errorCodes ?? {})) {
      const earlier = declared.get(code);
      if (earlier) throw new WiringError(`error code '${code}' is declared twice (by ${earlier.by}, again by ${module.name})`);
      if (!Number.isInteger(status) || status < 400 || status > 599) throw new WiringError(`error code '${code}' (${module.name}) has status ${status}, not an error status`);
      declared.set(code, { status, by: module.name });
    }
  }
  // A stable sort: codes of one status keep the order they were declared in.
  const sorted = [...declared.entries()].sort(([, a], [, b]) => a.status - b.status);
  return Object.fromEntries(sorted.map(([code, { status }]) => [code, status])) as ErrorStatuses;
}

/** The document's tags by rank; a name or a rank declared twice stops the start. */
function tagsOf(modules: readonly ModuleManifest[]): OpenApiTag[] {
  const tags: Array<OpenApiTag & { by: string }> = [];
  for (const module of modules) {
    for (const tag of module.tags ?? []) {
      const name = tags.find((other) => other.name === tag.name);
      if (name) throw new WiringError(`OpenAPI tag '${tag.name}' is declared twice (by ${name.by}, again by ${module.name})`);
      const rank = tags.find((other) => other.rank === tag.rank);
      if (rank) throw new WiringError(`OpenAPI tags '${rank.name}' (${rank.by}) and '${tag.name}' (${module.name}) have the same rank ${tag.rank}`);
      tags.push({ ...tag, by: module.name });
    }
  }
  return tags.sort((a, b) => a.rank - b.rank).map(({ name, description, rank }) => ({ name, description, rank }));
}

/**
 * Every id kind with its prefix, the kernel's first; a kind or a prefix declared twice stops the
 * start (two kinds of one prefix would make cursors and ids ambiguous).
 */
export function idPrefixesOf(modules: readonly ModuleManifest[]): IdPrefixTable {
  const kinds = new Map<string, { prefix: string; by: string }>();
  const prefixes = new Map<string, { kind: string; by: string }>();
  const declare = (table: IdPrefixTable, by: string) => {
    for (const [kind, prefix] of Object.entries(table)) {
      const earlier = kinds.get(kind);
      if (earlier) throw new WiringError(`id kind '${kind}' is declared twice (by ${earlier.by}, again by ${by})`);
      const taken = prefixes.get(prefix);
      if (taken) throw new WiringError(`id prefix '${prefix}' is declared twice (for ${taken.kind} by ${taken.by}, again for ${kind} by ${by})`);
      if (!/^[a-z]+$/.test(prefix)) throw new WiringError(`id prefix '${prefix}' (${kind}, ${by}) is not lower-case letters`);
      kinds.set(kind, { prefix, by });
      prefixes.set(prefix, { kind, by });
    }
  };
  declare(KERNEL_ID_PREFIXES, 'the kernel (src/ids.ts)');
  for (const module of modules) declare(module.idPrefixes ?? {}, module.name);
  return Object.fromEntries([...kinds].map(([kind, { prefix }]) => [kind, prefix]));
}

/**
 * The event catalog: the groups by rank, each group's types in their order. A type declared twice,
 * two groups of one rank, or one object name for two schemas stops the start.
 */
export function eventCatalogOf(modules: readonly ModuleManifest[]): EventCatalog {
  const groups: Array<EventGroup & { by: string }> = [];
  for (const module of modules) {
    for (const group of module.eventTypes ?? []) {
      const rank = groups.find((other) => other.rank === group.rank);
      if (rank) throw new WiringError(`event groups '${rank.objectName}' (${rank.by}) and '${group.objectName}' (${module.name}) have the same rank ${group.rank}`);
      const name = groups.find((other) => other.objectName === group.objectName && other.object !== group.object);
      if (name) throw new WiringError(`event object '${group.objectName}' is two schemas (by ${name.by}, again by ${module.name})`);
      groups.push({ ...group, by: module.name });
    }
  }
  const catalog = new Map<EventType, EventTypeEntry>();
  const declaredBy = new Map<string, string>();
  for (const group of groups.sort((a, b) => a.rank - b.rank)) {
    for (const [type, [description, previous]] of Object.entries(group.types)) {
      const earlier = declaredBy.get(type);
      if (earlier) throw new WiringError(`event type '${type}' is declared twice (by ${earlier}, again by ${group.by})`);
      declaredBy.set(type, group.by);
      catalog.set(type as EventType, { description, object: group.object, objectName: group.objectName, previousAttributes: previous !== undefined });
    }
  }
  return catalog;
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

/** The file storage of this configuration (STORAGE): local disk or S3. */
export function storageOf(config: Config): StorageDriver {
  return config.storage.kind === 's3' ? new S3Storage(config.storage) : new LocalStorage(config);
}

/** Builds the one Wiring of a process from the modules (all of them unless a test passes its own). */
export function buildWiring(config: Config, modules: readonly ModuleManifest[] = MODULES): Wiring {
  const all = <T>(pick: (module: ModuleManifest) => readonly T[] | undefined): T[] => modules.flatMap((module) => pick(module) ?? []);
  const idPrefixes = idPrefixesOf(modules);
  const wiring: Wiring = {
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
    errorStatuses: errorStatusesOf(modules),
    tags: tagsOf(modules),
    idPrefixes,
    eventCatalog: eventCatalogOf(modules),
    moderationTargets: moderationTargetsOf(modules),
    processors: PROCESSORS,
    simulated,
    stripeEvents,
    storage: storageOf(config),
    mailTransport: smtpTransport,
  };
  // Once every check passed: a refused wiring changes nothing of the process.
  installIdPrefixes(idPrefixes);
  return wiring;
}
