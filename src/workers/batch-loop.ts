// The engine's loop for work claimed in large batches from a module's own rows (the webhook
// deliveries): one per process and kind, built by the composition root (background.ts). The kind
// (a `BatchKind`, declared by its module) says which rows, how to attempt one and how to record a
// batch of outcomes: its SQL stays with the table's owner. The loop does the rest, the same for
// every such kind:
// - claims in one statement at a time (R6, docs/performance.md), under a lease with a fence token
//   per claim (leases.ts), as many rows as slots are free;
// - per-key caps of this process (key-slots.ts): the kind names the key families of a row (an
//   endpoint, a tenant) and their caps; keys at a cap are handed to the claim to pass over unread
//   (a dead endpoint's backlog costs the claim nothing); a reserve of slots past the shared ones
//   is open only to keys of one family with fewer than a few in flight (a tenant that has almost
//   nothing under way while others saturate the process);
// - pacing (pacing.ts): a rate-limited row starts at its sending slot, and no sooner than 1/rate
//   after this process's previous start to its key; the claim is told how far ahead to hand out
//   slots (longer when claims are slow);
// - runs every attempt at once with no transaction open; its slot is free as soon as the attempt
//   is, while its outcome waits for the next batch (the lease keeps the row from another claim);
// - records outcomes in batches: whatever finished while the previous batch was being written
//   goes into the next one, retried with backoff (past the lease the fence drops them);
// - wake-ups (wake.ts): a signal of the kind's name from this process's commits, a freed slot of a
//   key, family or process that was at its cap; else polling, every few ms while there is work,
//   backing off when idle;
// - stop(): ends claiming, releases the attempts still waiting for their sending slot, lets the
//   others finish (up to a grace), records them; start() or runDue() may follow.
import type { ComponentDeps, ComponentLoop } from '../contracts/engine.js';
import type { Scope } from '../scope.js';
import type { EngineLog } from './engine.js';
import { defaultWorkerId } from './engine.js';
import { KeySlots } from './key-slots.js';
import { FenceTokens } from './leases.js';

/** The keys of one family at this process's cap, and the others' slots left under it. */
export interface FamilySlots {
  full: string[];
  partial: string[];
  slots: number[];
  /** What a key with nothing in flight here may take. */
  cap: number;
}

/** What one claim statement is asked for. */
export interface BatchClaim<Family extends string> {
  realNow: Date;
  /** Rows to claim at most. */
  limit: number;
  /** The fence token of this claim (`locked_by`) and the lease's length. */
  token: string;
  leaseMs: number;
  /** How far ahead a rate-limited key's sending slots may be handed out. */
  paceHorizonMs: number;
  caps: Record<Family, FamilySlots>;
  /** Only this mode's rows (a test-clock advance), or all. */
  only: Scope | null;
}

/** A rate-limited row's sending slot: it starts at `atMs` (base clock) and at `rate` a second per key. */
export interface PacedStart {
  key: string;
  atMs: number;
  rate: number;
}

/** An attempt's outcome to record, or the row handed back unattempted (the loop stopped). */
export type BatchOutcome<Item, Result> = { item: Item; released: false; result: Result } | { item: Item; released: true };

/** What a module declares for its rows; the loop calls it. */
export interface BatchKind<Item, Result, Family extends string> {
  /** The wake-up topic (src/workers/wake.ts) and the kind's name in logs. */
  readonly name: string;
  /** One statement: claims up to `claim.limit` due rows under the claim's token, within the caps. */
  claim(claim: BatchClaim<Family>): Promise<Item[]>;
  /** The row's key in each capped family. */
  keysOf(item: Item): Record<Family, string>;
  /** The row's sending slot when its key is rate-limited, else null. */
  paceOf(item: Item): PacedStart | null;
  /** The I/O, with no transaction open. It reports failures as results; a throw is logged and recorded by `failed`. */
  attempt(item: Item): Promise<Result>;
  /** The result of an attempt that threw. */
  failed(item: Item, error: unknown): Result;
  /** Records a batch of outcomes, each fenced by its row's token (one statement where it can: R6). */
  record(batch: ReadonlyArray<BatchOutcome<Item, Result>>): Promise<void>;
  /** After stop(): lets go of what the attempts used (connection pools); the kind may start again. */
  stopped(): Promise<void>;
}

export interface BatchLoopOptions<Family extends string> {
  log: EngineLog;
  /** Names this process in the fence tokens. Default: host, pid and a random tag. */
  workerId?: string;
  /** Attempts in flight at once in this process, in the shared slots (the reserve is beyond them). */
  concurrency: number;
  /** Per family: attempts of one key in flight at once in this process. */
  caps: Record<Family, number>;
  /** Slots past `concurrency`, open only to keys of `family` with fewer than `perKey` in flight. */
  reserve: { slots: number; family: Family; perKey: number };
  /** Rows claimed by one statement at most. */
  batchSize: number;
  /** How long a claim holds a row; longer than an attempt plus recording it. */
  leaseMs: number;
  /** How far ahead sending slots are handed out at least, and at most (when claims are slow). */
  paceHorizonMs: { min: number; max: number };
  /** The polling interval while there is work, and the longest one when idle. */
  pollMs: { busy: number; idle: number };
}

const RECORD_RETRIES = 20;
const FAILURE_BACKOFF_MAX_MS = 10_000;

const NOBODY_WAITS = () => undefined;

/** One waiting loop's wake-up: `ring()` ends the wait under way; a ring while none waits is not kept. */
class Doorbell {
  private answer: () => void = NOBODY_WAITS;

  ring(): void {
    this.answer();
  }

  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.answer = NOBODY_WAITS;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.answer = done;
    });
  }
}

export class BatchLoop<Item, Result, Family extends string> implements ComponentLoop {
  readonly workerId: string;
  private log: EngineLog;
  private readonly tokens: FenceTokens;
  private readonly families: readonly Family[];
  private readonly slots: Record<Family, KeySlots>;
  private readonly running = new Set<Promise<void>>();
  /** Attempts waiting for their sending slot: woken (and released) when the loop stops. */
  private readonly sleepers = new Set<() => void>();
  private readonly doorbell = new Doorbell();
  private stopping = new AbortController();
  private inFlight = 0;
  /** How long a claim has been taking (a moving average, ms). */
  private claimMs = 0;
  private outcomes: Array<{ outcome: BatchOutcome<Item, Result>; done: () => void }> = [];
  private flushing: Promise<void> | null = null;
  private loop: Promise<void> | null = null;
  private unsubscribe: () => void = NOBODY_WAITS;

  constructor(
    private readonly deps: ComponentDeps,
    private readonly kind: BatchKind<Item, Result, Family>,
    private readonly options: BatchLoopOptions<Family>,
  ) {
    this.workerId = options.workerId ?? defaultWorkerId();
    this.log = options.log;
    this.tokens = new FenceTokens(this.workerId);
    this.families = Object.keys(options.caps) as Family[];
    this.slots = Object.fromEntries(this.families.map((family) => [family, new KeySlots()])) as Record<Family, KeySlots>;
  }

  /** Starts the claim loop (the worker's part), logging to `log`. */
  start(log: EngineLog = this.log): void {
    if (this.loop) return;
    this.log = log;
    this.unsubscribe = this.deps.background.wakeUps.on((topic) => {
      if (topic === this.kind.name) this.doorbell.ring();
    });
    this.loop = this.run();
  }

  /** Ends claiming, lets attempts under way finish (up to graceMs), records them; start() may follow. */
  async stop(graceMs = 11_000): Promise<void> {
    this.stopping.abort(new Error(`${this.kind.name} stopping`));
    for (const wake of [...this.sleepers]) wake();
    this.unsubscribe();
    this.unsubscribe = NOBODY_WAITS;
    this.doorbell.ring();
    await this.loop;
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs)))]);
    clearTimeout(graceTimer);
    await this.kind.stopped();
    this.loop = null;
    this.stopping = new AbortController();
  }

  /** Resolves once no attempt is in flight and every outcome is recorded. */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.outcomes.length > 0 || this.flushing) {
      await Promise.all([...this.running]);
      await this.flushing;
      if (this.outcomes.length > 0) await this.flush();
    }
  }

  /**
   * Claims every row due now (of one mode, or all) and starts them; with `wait`, resolves when
   * they are recorded. The test clock's advance and the tests use it; the loop does it continuously.
   */
  async runDue(only: Scope | null, options: { wait?: boolean } = {}): Promise<number> {
    let started = 0;
    for (;;) {
      const want = Math.max(1, Math.min(this.options.batchSize, this.room()));
      const items = await this.claim(want, only);
      for (const item of items) this.launch(item);
      started += items.length;
      if (items.length < want) break;
    }
    if (options.wait) await this.idle();
    return started;
  }

  private async run(): Promise<void> {
    const { busy, idle } = this.options.pollMs;
    let pollMs = busy;
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      const free = this.room();
      let want = 0;
      let got = 0;
      if (free > 0) {
        want = Math.min(this.options.batchSize, free);
        try {
          const items = await this.claim(want, null);
          failures = 0;
          for (const item of items) this.launch(item);
          got = items.length;
        } catch (err) {
          failures++;
          this.log.error({ err, kind: this.kind.name, failures }, 'batch claim failed');
        }
      }
      if (this.stopping.signal.aborted) break;
      if (want > 0 && got === want) continue;
      pollMs = failures > 0 ? Math.min(FAILURE_BACKOFF_MAX_MS, 250 * 2 ** failures) : got > 0 ? busy : Math.min(idle, pollMs * 2);
      await this.doorbell.wait(pollMs);
    }
  }

  /** Slots a claim may fill now: the shared ones left, or else the reserve's. */
  private room(): number {
    const { concurrency, reserve } = this.options;
    return this.inFlight < concurrency ? concurrency - this.inFlight : concurrency + reserve.slots - this.inFlight;
  }

  private async claim(want: number, only: Scope | null): Promise<Item[]> {
    const limit = Math.max(0, Math.min(want, this.room()));
    if (limit === 0) return [];
    // While shared slots are left, a key may fill up to its cap; once they are all taken, only
    // from the reserve, and only keys of the reserve's family with fewer than its share: a key at
    // its cap (or past the reserved share) is passed over unread, every other key's rows claimed.
    const { reserve, paceHorizonMs } = this.options;
    const shared = this.inFlight < this.options.concurrency;
    const caps = {} as Record<Family, FamilySlots>;
    for (const family of this.families) {
      const cap = family === reserve.family && !shared ? reserve.perKey : this.options.caps[family];
      caps[family] = { ...this.slots[family].split(cap), cap };
    }
    // Sending slots are handed out at least three claims ahead: a claim that takes 600 ms on a
    // loaded database would otherwise cap a rate-limited key at one horizon per claim.
    const horizonMs = Math.min(paceHorizonMs.max, Math.max(paceHorizonMs.min, Math.round(3 * this.claimMs)));
    const claimStarted = this.deps.clock.nowMs();
    const items = await this.kind.claim({
      realNow: new Date(claimStarted),
      limit,
      token: this.tokens.next(),
      leaseMs: this.options.leaseMs,
      paceHorizonMs: horizonMs,
      caps,
      only,
    });
    this.claimMs = 0.8 * this.claimMs + 0.2 * Math.max(0, this.deps.clock.nowMs() - claimStarted);
    return items;
  }

  private launch(item: Item): void {
    const keys = this.kind.keysOf(item);
    this.inFlight++;
    for (const family of this.families) this.slots[family].take(keys[family]);
    let slotHeld = true;
    // The slot is free once the attempt is: recording the outcome (batched) overlaps with the
    // next attempts, and the row's lease keeps it from being claimed again meanwhile.
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      this.inFlight--;
      let wasAtCap = this.inFlight >= this.options.concurrency - 1;
      for (const family of this.families) {
        if (this.slots[family].give(keys[family]) >= this.options.caps[family]) wasAtCap = true;
      }
      // A key, a family or the process was at its cap: due rows can be claimed now.
      if (wasAtCap) this.doorbell.ring();
    };
    const run = this.attempt(item, freeSlot)
      .catch((err: unknown) => this.log.error({ err, kind: this.kind.name }, 'batch attempt could not be recorded'))
      .finally(() => {
        freeSlot();
        this.running.delete(run);
      });
    this.running.add(run);
  }

  private async attempt(item: Item, freeSlot: () => void): Promise<void> {
    const paced = this.kind.paceOf(item);
    if (paced !== null) await this.waitForSlot(paced);
    let outcome: BatchOutcome<Item, Result>;
    if (this.stopping.signal.aborted) outcome = { item, released: true };
    else {
      let result: Result;
      try {
        result = await this.kind.attempt(item);
      } catch (err) {
        this.log.error({ err, kind: this.kind.name }, 'attempt failed unexpectedly');
        result = this.kind.failed(item, err);
      }
      outcome = { item, released: false, result };
    }
    freeSlot();
    await new Promise<void>((done) => {
      this.outcomes.push({ outcome, done });
      void this.flush();
    });
  }

  /**
   * A rate-limited row starts at its sending slot (at most the horizon ahead), and no sooner than
   * 1/rate after this process's previous start to its key (the process's Pacer): timers that fire
   * late (a busy event loop) would otherwise start several overdue slots at once.
   */
  private async waitForSlot(paced: PacedStart): Promise<void> {
    let atMs: number | null = paced.atMs;
    while (atMs !== null) {
      await this.sleepUntil(atMs);
      if (this.stopping.signal.aborted) return;
      atMs = this.deps.background.pacing.startOrWaitUntil(paced.key, paced.rate, this.deps.clock.nowMs());
    }
  }

  /** Waits until the base clock reaches `atMs`, or the loop stops. */
  private async sleepUntil(atMs: number): Promise<void> {
    const waitMs = atMs - this.deps.clock.nowMs();
    if (waitMs <= 0 || this.stopping.signal.aborted) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, waitMs);
      this.sleepers.add(wake);
    });
  }

  /** Writes every outcome gathered so far; one batch at a time, the next one gathering meanwhile. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.flushing = (async () => {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes;
        this.outcomes = [];
        await this.record(batch.map((entry) => entry.outcome));
        for (const entry of batch) entry.done();
      }
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async record(batch: ReadonlyArray<BatchOutcome<Item, Result>>): Promise<void> {
    for (let failures = 0; ; failures++) {
      try {
        await this.kind.record(batch);
        return;
      } catch (err) {
        // A deadlock with another worker's batch, or the database away: try again. Past the lease
        // the rows are claimed anew and these outcomes are dropped by the fence (attempted again).
        this.log.error({ err, kind: this.kind.name, failures, outcomes: batch.length }, 'batch outcomes could not be recorded');
        if (failures >= RECORD_RETRIES) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 50 * 2 ** failures)));
      }
    }
  }
}
