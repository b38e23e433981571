// State machines (docs/architecture.md, "State machines"): each resource's states live in one
// declarative table of rows. A row says from which states an operation may start, who may take
// it, the state it leads to, the events it emits and the timers it sets or cancels. Handlers,
// timer handlers, error messages, actor checks, tests and the docs' diagrams all read the table;
// nothing else decides whether a move is allowed. No HTTP here: refusals are domain errors.
import type { Tx } from '../db/db.js';
import { DomainError, errors } from '../errors.js';
import { emitEvent } from '../outbox/emit.js';
import { type EventObject } from '../contracts/events.js';
import type { EventType } from '../contracts/events.js';
import type { Scope } from '../scope.js';
import { cancelTimer, scheduleTimer } from '../workers/timers.js';

export type Party = 'buyer' | 'seller';

/** Who acts on a move: the platform's server, a timer, the payment processor, or an end user (a party). */
export type Actor = 'platform' | 'timer' | 'processor' | Party;

/**
 * The "who" column: actors, or parties relative to the resource. `either_party` is the buyer or
 * the seller; `other_party` is the party that did not make the pending proposal (the proposer is
 * given when the move is checked).
 */
export type Who = Actor | 'either_party' | 'other_party';

export interface Row<S extends string, O extends string, T extends string> {
  from: readonly S[];
  operation: O;
  who: readonly Who[];
  to: S;
  /** Emitted in this order, each carrying the resource as it is after the move. */
  emits: readonly EventType[];
  sets?: readonly T[];
  cancels?: readonly T[];
}

export interface Machine<S extends string, O extends string, T extends string> {
  /** The resource as messages name it: "The listing is removed; it cannot be published." */
  subject: string;
  states: readonly S[];
  /** The states a new resource starts in. */
  initial: readonly S[];
  /** How each operation reads after "it cannot": `be published`, `start a verification`. */
  operations: Readonly<Record<O, string>>;
  /** Each timer kind and the operation it takes when it fires (a row whose who is `timer`). */
  timers: Readonly<Record<T, O>>;
  /** How a state reads in messages when not as is, as `pending (verification)`. */
  describe?(state: S): string;
  rows: readonly Row<S, O, T>[];
}

/**
 * Declares a machine. States, operations and timer kinds are taken from `states`, `operations`
 * and `timers`; every row must use them (NoInfer), so a misspelt one does not compile. The table
 * is also checked once at load: known states, operations and timers (a machine sets and cancels
 * only its own), one row per (state, operation), and each timer fires a row the timer may take.
 */
export function defineMachine<const S extends string, const O extends string, const T extends string = never>(machine: {
  subject: string;
  states: readonly S[];
  initial: readonly NoInfer<S>[];
  operations: Readonly<Record<O, string>>;
  timers?: Readonly<Record<T, NoInfer<O>>>;
  describe?: (state: NoInfer<S>) => string;
  rows: readonly Row<NoInfer<S>, NoInfer<O>, NoInfer<T>>[];
}): Machine<S, O, T> {
  const defined: Machine<S, O, T> = { ...machine, timers: machine.timers ?? ({} as Record<T, O>) };
  const fail = (problem: string) => {
    throw new Error(`state machine ${defined.subject}: ${problem}`);
  };
  const isState = (state: string) => (defined.states as readonly string[]).includes(state);
  for (const state of defined.initial) if (!isState(state)) fail(`unknown initial state ${state}`);
  const seen = new Set<string>();
  for (const row of defined.rows) {
    if (!Object.hasOwn(defined.operations, row.operation)) fail(`unknown operation ${row.operation}`);
    if (row.from.length === 0 || row.who.length === 0) fail(`a row of ${row.operation} needs from-states and who`);
    for (const state of [...row.from, row.to]) if (!isState(state)) fail(`${row.operation}: unknown state ${state}`);
    for (const kind of [...(row.sets ?? []), ...(row.cancels ?? [])]) {
      if (!Object.hasOwn(defined.timers, kind)) fail(`${row.operation}: timer ${kind} is not one of the machine's timers`);
    }
    for (const from of row.from) {
      const key = `${from} ${row.operation}`;
      if (seen.has(key)) fail(`two rows for ${key}`);
      seen.add(key);
    }
  }
  for (const [kind, operation] of Object.entries(defined.timers) as Array<[T, O]>) {
    if (!defined.rows.some((row) => row.operation === operation && row.who.includes('timer'))) {
      fail(`timer ${kind} fires ${operation}, which has no row for the timer`);
    }
  }
  return defined;
}

/** The row of `operation` from `state`, or undefined when the table has none. */
export function rowOf<S extends string, O extends string, T extends string>(
  machine: Machine<S, O, T>,
  state: S,
  operation: O,
): Row<S, O, T> | undefined {
  return machine.rows.find((row) => row.operation === operation && row.from.includes(state));
}

/** The rows of `operation` that `actor` may take (for moves of many resources in one statement). */
export function rowsOf<S extends string, O extends string, T extends string>(
  machine: Machine<S, O, T>,
  operation: O,
  actor: Actor,
): Array<Row<S, O, T>> {
  return machine.rows.filter((row) => row.operation === operation && mayAct(row.who, actor));
}

/** The states `operation` may start from, in the order of `states`. */
export function fromStates<S extends string, O extends string, T extends string>(machine: Machine<S, O, T>, operation: O): S[] {
  return machine.states.filter((state) => rowOf(machine, state, operation) !== undefined);
}

/** 409 invalid_state: "The listing is removed; it cannot be published." */
export function invalidState<S extends string, O extends string, T extends string>(
  machine: Machine<S, O, T>,
  state: S,
  operation: O,
): DomainError {
  return errors.invalidState(machine.subject, machine.describe?.(state) ?? state, machine.operations[operation]);
}

/** Whether `actor` is among `who`; `other_party` needs the proposer (no proposal: nobody is). */
export function mayAct(who: readonly Who[], actor: Actor, proposer?: Party | null): boolean {
  return who.some((one) => {
    if (one === 'either_party') return actor === 'buyer' || actor === 'seller';
    if (one === 'other_party') return proposer != null && (actor === 'buyer' || actor === 'seller') && actor !== proposer;
    return one === actor;
  });
}

/**
 * The row that moves the resource: 409 invalid_state naming the state when the table has no row
 * of `operation` from it, 403 actor_not_permitted when the row is for someone else.
 */
export function move<S extends string, O extends string, T extends string>(
  machine: Machine<S, O, T>,
  state: S,
  operation: O,
  actor: Actor,
  proposer?: Party | null,
): Row<S, O, T> {
  const row = rowOf(machine, state, operation);
  if (!row) throw invalidState(machine, state, operation);
  if (!mayAct(row.who, actor, proposer)) {
    const allowed = row.who.map((who) => describeWho(who, proposer)).join(' or ');
    throw errors.forbidden(
      'actor_not_permitted',
      `The ${machine.subject} is ${machine.describe?.(state) ?? state}; ${operation} is for ${allowed}, not the ${actor}.`,
      isParty(actor) ? 'actor' : undefined,
    );
  }
  return row;
}

/**
 * The row a firing timer takes, or null when the timer no longer applies (the resource left the
 * states it fires from): such a timer is dropped, not retried.
 */
export function timerMove<S extends string, O extends string, T extends string>(
  machine: Machine<S, O, T>,
  state: S,
  kind: T,
): Row<S, O, T> | null {
  const row = rowOf(machine, state, machine.timers[kind]);
  return row && mayAct(row.who, 'timer') ? row : null;
}

/** An actor body's id as a party of the resource, or 403 actor_not_party. */
export function partyOf(subject: string, actorId: string, parties: Readonly<Record<Party, string>>): Party {
  if (actorId === parties.buyer) return 'buyer';
  if (actorId === parties.seller) return 'seller';
  throw errors.forbidden('actor_not_party', `'${actorId}' is neither the buyer nor the seller of this ${subject}.`, 'actor');
}

/** Emits the row's events with the resource as it is after the move (and old values, for updates). */
export async function emitMove(
  tx: Tx,
  scope: Scope,
  now: Date,
  row: Row<string, string, string>,
  object: EventObject,
  previousAttributes?: Record<string, unknown>,
): Promise<void> {
  for (const type of row.emits) await emitEvent(tx, scope, now, type, object, previousAttributes);
}

/**
 * Sets and cancels the row's timers for the resource. The handler gives each timer the row sets
 * its time (`at`); null means the resource has no such time (no `expires_at`), so the timer goes.
 */
export async function applyTimers<T extends string>(
  tx: Tx,
  scope: Scope,
  row: Row<string, string, T>,
  subjectId: string,
  at: Partial<Record<T, Date | null>> = {},
): Promise<void> {
  for (const kind of row.cancels ?? []) await cancelTimer(tx, scope, kind, subjectId);
  for (const kind of row.sets ?? []) {
    const runAt = at[kind];
    if (runAt === undefined) throw new Error(`${row.operation} sets the timer ${kind}, but no time was given for it`);
    if (runAt === null) await cancelTimer(tx, scope, kind, subjectId);
    else await scheduleTimer(tx, scope, kind, subjectId, runAt);
  }
}

/** The machine as a Mermaid stateDiagram-v2; edges read `operation (who)`. */
export function toMermaid<S extends string, O extends string, T extends string>(machine: Machine<S, O, T>): string {
  const lines = ['stateDiagram-v2'];
  for (const state of machine.initial) lines.push(`    [*] --> ${state}`);
  for (const row of machine.rows) {
    for (const from of row.from) lines.push(`    ${from} --> ${row.to}: ${row.operation} (${row.who.join(', ')})`);
  }
  for (const state of machine.states) {
    const leaves = machine.rows.some((row) => row.from.includes(state) && row.to !== state);
    if (!leaves) lines.push(`    ${state} --> [*]`);
  }
  return lines.join('\n');
}

/** The machine as a Markdown table: one line per row. */
export function toMarkdownTable<S extends string, O extends string, T extends string>(machine: Machine<S, O, T>): string {
  const list = (items: readonly string[] | undefined) => (items?.length ? items.map((item) => `\`${item}\``).join(', ') : '');
  const lines = ['| From | Operation | Who | To | Events | Sets timers | Cancels timers |', '|---|---|---|---|---|---|---|'];
  for (const row of machine.rows) {
    lines.push(
      `| ${row.from.join(', ')} | \`${row.operation}\` | ${row.who.join(', ')} | ${row.to} | ${list(row.emits)} | ${list(row.sets)} | ${list(row.cancels)} |`,
    );
  }
  return lines.join('\n');
}

function isParty(actor: Actor): actor is Party {
  return actor === 'buyer' || actor === 'seller';
}

function describeWho(who: Who, proposer?: Party | null): string {
  if (who === 'either_party') return 'the buyer or the seller';
  if (who === 'other_party') return proposer ? `the ${proposer === 'buyer' ? 'seller' : 'buyer'}` : 'the party that did not propose';
  return `the ${who}`;
}
