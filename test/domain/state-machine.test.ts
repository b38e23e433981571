// The state machine core: rows allow or refuse moves, actor rules (parties, either party, the
// other party), timers and events listed per row, load-time and compile-time checks, Mermaid.
import { describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/db.js';
import {
  applyTimers,
  defineMachine,
  emitMove,
  fromStates,
  move,
  partyOf,
  rowOf,
  rowsOf,
  timerMove,
  toMarkdownTable,
  toMermaid,
  type Actor,
} from '../../src/domain/state-machine.js';
import { DomainError } from '../../src/errors.js';
import { LISTING_MACHINE } from '../../src/modules/listings/status.js';
import { SELLER_VERIFICATION_MACHINE } from '../../src/modules/sellers/verification-state.js';
import type { Scope } from '../../src/scope.js';

// An order machine shaped like the one orders will declare: it exercises every kind of "who".
const ORDER = defineMachine({
  subject: 'order',
  states: ['awaiting_payment', 'committed', 'claimed', 'completed', 'cancelled', 'expired'],
  initial: ['awaiting_payment', 'committed'],
  operations: {
    pay: 'be paid',
    payment_window: 'expire',
    cancel: 'be cancelled',
    claim: 'be claimed',
    propose_cancellation: 'have a cancellation proposed',
    accept_cancellation: 'have a cancellation accepted',
    confirm: 'be confirmed',
    confirm_window: 'complete',
  },
  timers: { 'order.payment_window': 'payment_window', 'order.confirm_window': 'confirm_window' },
  rows: [
    { from: ['awaiting_payment'], operation: 'pay', who: ['processor'], to: 'committed', emits: ['order.committed'], cancels: ['order.payment_window'] },
    { from: ['awaiting_payment'], operation: 'payment_window', who: ['timer'], to: 'expired', emits: ['order.expired'] },
    {
      from: ['awaiting_payment'],
      operation: 'cancel',
      who: ['platform', 'either_party'],
      to: 'cancelled',
      emits: ['order.cancelled'],
      cancels: ['order.payment_window'],
    },
    { from: ['committed', 'claimed'], operation: 'cancel', who: ['platform'], to: 'cancelled', emits: ['order.cancelled'], cancels: ['order.confirm_window'] },
    { from: ['committed'], operation: 'claim', who: ['seller'], to: 'claimed', emits: ['order.claimed'], sets: ['order.confirm_window'] },
    { from: ['committed'], operation: 'propose_cancellation', who: ['either_party'], to: 'committed', emits: ['order.cancellation_proposed'] },
    { from: ['claimed'], operation: 'propose_cancellation', who: ['either_party'], to: 'claimed', emits: ['order.cancellation_proposed'] },
    { from: ['committed', 'claimed'], operation: 'accept_cancellation', who: ['other_party'], to: 'cancelled', emits: ['order.cancelled'] },
    { from: ['claimed'], operation: 'confirm', who: ['buyer'], to: 'completed', emits: ['order.completed'], cancels: ['order.confirm_window'] },
    { from: ['claimed'], operation: 'confirm_window', who: ['timer'], to: 'completed', emits: ['order.completed'] },
  ],
});

function refusal(fn: () => unknown): { code: string; message: string; param: string | undefined } {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('move', () => {
  it('answers the row of an allowed (state, operation): to-state, events and timers', () => {
    const claim = move(ORDER, 'committed', 'claim', 'seller');
    expect(claim).toMatchObject({ to: 'claimed', emits: ['order.claimed'], sets: ['order.confirm_window'] });
    expect(move(ORDER, 'awaiting_payment', 'pay', 'processor')).toMatchObject({ to: 'committed', cancels: ['order.payment_window'] });
    expect(move(ORDER, 'claimed', 'propose_cancellation', 'buyer').to).toBe('claimed');
  });

  it('refuses a pair the table does not have with invalid_state naming the state and the operation', () => {
    expect(refusal(() => move(ORDER, 'completed', 'claim', 'seller'))).toEqual({
      code: 'invalid_state',
      message: 'The order is completed; it cannot be claimed.',
      param: undefined,
    });
    expect(refusal(() => move(LISTING_MACHINE, 'removed', 'publish', 'platform')).message).toBe(
      'The listing is removed; it cannot be published.',
    );
    expect(refusal(() => move(SELLER_VERIFICATION_MACHINE, 'pending', 'start', 'platform')).message).toBe(
      'The seller is pending (verification); it cannot start a verification.',
    );
  });

  it('checks the state before the actor: a wrong party in a state that allows nobody gets invalid_state', () => {
    expect(refusal(() => move(ORDER, 'committed', 'confirm', 'seller')).code).toBe('invalid_state');
  });

  it('refuses a party the row is not for with actor_not_permitted naming who may act', () => {
    expect(refusal(() => move(ORDER, 'committed', 'claim', 'buyer'))).toEqual({
      code: 'actor_not_permitted',
      message: 'The order is committed; claim is for the seller, not the buyer.',
      param: 'actor',
    });
    expect(refusal(() => move(ORDER, 'claimed', 'cancel', 'seller')).message).toBe(
      'The order is claimed; cancel is for the platform, not the seller.',
    );
    expect(refusal(() => move(ORDER, 'awaiting_payment', 'cancel', 'timer'))).toMatchObject({ code: 'actor_not_permitted', param: undefined });
  });

  it('lets either party and the platform take a row for platform and either_party', () => {
    for (const actor of ['platform', 'buyer', 'seller'] satisfies Actor[]) {
      expect(move(ORDER, 'awaiting_payment', 'cancel', actor).to).toBe('cancelled');
    }
  });

  it('lets only the other party than the proposer take an other_party row; without a proposal nobody may', () => {
    expect(move(ORDER, 'committed', 'accept_cancellation', 'seller', 'buyer').to).toBe('cancelled');
    expect(move(ORDER, 'claimed', 'accept_cancellation', 'buyer', 'seller').to).toBe('cancelled');
    expect(refusal(() => move(ORDER, 'committed', 'accept_cancellation', 'buyer', 'buyer'))).toEqual({
      code: 'actor_not_permitted',
      message: 'The order is committed; accept_cancellation is for the seller, not the buyer.',
      param: 'actor',
    });
    expect(refusal(() => move(ORDER, 'committed', 'accept_cancellation', 'platform', 'buyer')).code).toBe('actor_not_permitted');
    expect(refusal(() => move(ORDER, 'committed', 'accept_cancellation', 'seller')).message).toBe(
      'The order is committed; accept_cancellation is for the party that did not propose, not the seller.',
    );
  });
});

describe('partyOf', () => {
  const parties = { buyer: 'byr_1', seller: 'sel_1' };
  it('names the party an actor id is, or refuses a non-party with actor_not_party', () => {
    expect(partyOf('order', 'byr_1', parties)).toBe('buyer');
    expect(partyOf('order', 'sel_1', parties)).toBe('seller');
    expect(refusal(() => partyOf('order', 'byr_2', parties))).toEqual({
      code: 'actor_not_party',
      message: "'byr_2' is neither the buyer nor the seller of this order.",
      param: 'actor',
    });
  });
});

describe('reading the table', () => {
  it('finds rows, the states an operation starts from, and the rows an actor may take', () => {
    expect(rowOf(ORDER, 'claimed', 'claim')).toBeUndefined();
    expect(fromStates(ORDER, 'cancel')).toEqual(['awaiting_payment', 'committed', 'claimed']);
    expect(fromStates(LISTING_MACHINE, 'remove')).toEqual(['draft', 'published', 'sold', 'expired']);
    expect(rowsOf(ORDER, 'cancel', 'platform').map((row) => row.from)).toEqual([['awaiting_payment'], ['committed', 'claimed']]);
    expect(rowsOf(ORDER, 'cancel', 'buyer').map((row) => row.from)).toEqual([['awaiting_payment']]);
  });

  it('gives a firing timer its row, or null when the resource left the states it fires from', () => {
    expect(timerMove(ORDER, 'awaiting_payment', 'order.payment_window')).toMatchObject({ to: 'expired', emits: ['order.expired'] });
    expect(timerMove(ORDER, 'committed', 'order.payment_window')).toBeNull();
    expect(timerMove(ORDER, 'claimed', 'order.confirm_window')?.to).toBe('completed');
    expect(timerMove(LISTING_MACHINE, 'published', 'listing.expire')?.to).toBe('expired');
    expect(timerMove(LISTING_MACHINE, 'draft', 'listing.expire')).toBeNull();
  });
});

describe('emitMove and applyTimers', () => {
  const scope: Scope = { marketplaceId: 'mkt_1', mode: 'test' };
  const now = new Date('2026-01-01T00:00:00.000Z');
  function recordingTx(): { tx: Tx; statements: Array<{ sql: string; params: readonly unknown[] }> } {
    const statements: Array<{ sql: string; params: readonly unknown[] }> = [];
    const query = async <T>(sql: string, params: readonly unknown[] = []) => {
      statements.push({ sql: sql.replace(/\s+/g, ' ').trim(), params });
      return [] as T[];
    };
    const tx: Tx = { query, queryThenCommit: query, afterCommit: () => {}, carried: { eventSubscribers: [] } };
    return { tx, statements };
  }

  it("emits each of the row's events with the object", async () => {
    const { tx, statements } = recordingTx();
    await emitMove(tx, scope, now, move(LISTING_MACHINE, 'draft', 'update', 'platform'), { id: 'lst_1' }, { title: 'Old' });
    expect(statements).toHaveLength(1);
    expect(statements[0]!.sql).toMatch(/^INSERT INTO events/);
    expect(statements[0]!.params[3]).toBe('listing.updated');
    expect(JSON.parse(statements[0]!.params[5] as string)).toEqual({ object: { id: 'lst_1' }, previous_attributes: { title: 'Old' } });
  });

  it("cancels the row's timers and sets each at the time given; null cancels, a missing time is a bug", async () => {
    const remove = move(LISTING_MACHINE, 'published', 'remove', 'platform');
    const publish = move(LISTING_MACHINE, 'draft', 'publish', 'platform');
    const at = new Date('2026-02-01T00:00:00.000Z');
    const kinds = async (fn: (tx: Tx) => Promise<void>) => {
      const { tx, statements } = recordingTx();
      await fn(tx);
      return statements.map((s) => `${s.sql.split(' ')[0]} ${s.params.find((param) => param === 'listing.expire')}`);
    };
    expect(await kinds((tx) => applyTimers(tx, scope, remove, 'lst_1'))).toEqual(['DELETE listing.expire']);
    expect(await kinds((tx) => applyTimers(tx, scope, publish, 'lst_1', { 'listing.expire': at }))).toEqual(['INSERT listing.expire']);
    expect(await kinds((tx) => applyTimers(tx, scope, publish, 'lst_1', { 'listing.expire': null }))).toEqual(['DELETE listing.expire']);
    await expect(kinds((tx) => applyTimers(tx, scope, publish, 'lst_1'))).rejects.toThrow(/no time was given/);
  });
});

describe('defineMachine', () => {
  const base = { subject: 'thing', states: ['a', 'b'], initial: ['a'], operations: { go: 'go', wait: 'wait' } } as const;

  it('refuses at load two rows for one (state, operation), an empty row, and a timer without a timer row', () => {
    expect(() =>
      defineMachine({
        ...base,
        rows: [
          { from: ['a'], operation: 'go', who: ['platform'], to: 'b', emits: [] },
          { from: ['b', 'a'], operation: 'go', who: ['platform'], to: 'a', emits: [] },
        ],
      }),
    ).toThrow('state machine thing: two rows for a go');
    expect(() => defineMachine({ ...base, rows: [{ from: [], operation: 'go', who: ['platform'], to: 'b', emits: [] }] })).toThrow(
      /needs from-states and who/,
    );
    expect(() =>
      defineMachine({ ...base, timers: { 'thing.t': 'go' }, rows: [{ from: ['a'], operation: 'go', who: ['platform'], to: 'b', emits: [] }] }),
    ).toThrow('timer thing.t fires go, which has no row for the timer');
  });

  it('refuses unknown states, operations, events and timers at compile time (and states, operations, timers at load)', () => {
    // @ts-expect-error 'c' is not a state
    expect(() => defineMachine({ ...base, rows: [{ from: ['c'], operation: 'go', who: ['platform'], to: 'b', emits: [] }] })).toThrow(/unknown state c/);
    // @ts-expect-error 'gone' is not an operation
    expect(() => defineMachine({ ...base, rows: [{ from: ['a'], operation: 'gone', who: ['platform'], to: 'b', emits: [] }] })).toThrow(
      /unknown operation gone/,
    );
    const sets = { from: ['a'], operation: 'go', who: ['timer'], to: 'b', emits: [], sets: ['thing.u'] } as const;
    // @ts-expect-error 'thing.u' is not one of the machine's timers
    expect(() => defineMachine({ ...base, timers: { 'thing.t': 'go' }, rows: [sets] })).toThrow(/timer thing.u is not one/);
    // @ts-expect-error 'thing.happened' is not an event type
    defineMachine({ ...base, rows: [{ from: ['a'], operation: 'go', who: ['platform'], to: 'b', emits: ['thing.happened'] }] });
    // @ts-expect-error 'someone' is not a who
    defineMachine({ ...base, rows: [{ from: ['a'], operation: 'go', who: ['someone'], to: 'b', emits: [] }] });
    // @ts-expect-error a machine's operation only
    expect(() => move(ORDER, 'committed', 'ship', 'seller')).toThrow();
  });
});

describe('toMermaid', () => {
  it('draws initial states, one edge per from-state labelled operation (who), and states nothing leaves as final', () => {
    const machine = defineMachine({
      subject: 'thing',
      states: ['new', 'live', 'gone'],
      initial: ['new'],
      operations: { start: 'start', touch: 'be touched', end: 'end' },
      rows: [
        { from: ['new'], operation: 'start', who: ['platform'], to: 'live', emits: [] },
        { from: ['live'], operation: 'touch', who: ['buyer', 'seller'], to: 'live', emits: [] },
        { from: ['new', 'live'], operation: 'end', who: ['timer'], to: 'gone', emits: [] },
      ],
    });
    expect(toMermaid(machine)).toBe(
      [
        'stateDiagram-v2',
        '    [*] --> new',
        '    new --> live: start (platform)',
        '    live --> live: touch (buyer, seller)',
        '    new --> gone: end (timer)',
        '    live --> gone: end (timer)',
        '    gone --> [*]',
      ].join('\n'),
    );
  });

  it('draws the listing machine from its table', () => {
    const lines = toMermaid(LISTING_MACHINE).split('\n');
    expect(lines).toContain('    [*] --> draft');
    expect(lines).toContain('    expired --> published: publish (platform)');
    expect(lines).toContain('    published --> expired: expire (timer)');
    expect(lines).toContain('    removed --> [*]');
    expect(lines.filter((line) => line.includes(': remove '))).toHaveLength(4);
  });
});

describe('toMarkdownTable', () => {
  it('lists every row with its who, events and timers', () => {
    const table = toMarkdownTable(LISTING_MACHINE).split('\n');
    expect(table[0]).toBe('| From | Operation | Who | To | Events | Sets timers | Cancels timers |');
    expect(table).toContain('| draft, expired | `publish` | platform | published | `listing.published` | `listing.expire` |  |');
    expect(table).toHaveLength(2 + LISTING_MACHINE.rows.length);
  });
});
