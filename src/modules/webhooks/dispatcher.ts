// The delivery dispatcher: the delivery rows themselves are its work. One loop per process claims
// due rows in batches (one short transaction, FOR UPDATE SKIP LOCKED, a lease of LEASE_MS real
// time fenced by a claim token in locked_by), starts every claimed attempt at once with no
// transaction open (hundreds in flight over keep-alive pools), and records outcomes in batches:
// whatever finished while the previous batch was being written goes in the next, in one
// transaction of a few statements. Caps per process keep a slow or dead endpoint to its own slots
// and a tenant (a marketplace and mode) to its share: per endpoint, per tenant, and a reserve past
// the shared slots that only tenants with almost nothing in flight may use; the claim takes the
// tenants' rows in turns (docs/webhooks.md, "Fair delivery between tenants"). A worker that dies
// leaves its claims to the next claim after their lease.
// Wake-ups: a signal from this process's commits (src/workers/wake.ts), else short adaptive
// polling: no NOTIFY. The per-key caps and the pacing are the engine's (src/workers/key-slots.ts,
// pacing.ts). The composition root builds one dispatcher per process (the webhooks manifest's
// component); the worker starts it and the test clock's advance runs it.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ComponentDeps, ComponentLoop } from '../../contracts/engine.js';
import type { Mode, Scope } from '../../scope.js';
import { decryptSecret } from '../../secrets.js';
import { attemptDelivery, closeSender, createSender, type AttemptResult, type Sender } from './attempt.js';
import { destinationRules, systemResolver, type Resolver } from './destination.js';
import { AUTO_DISABLE_AFTER_MS, autoDisableEndpoint } from './health.js';
import { secretContext } from './operations.js';
import * as queries from './queries.js';
import { KeySlots } from '../../workers/key-slots.js';
import { DISPATCHER } from './wake.js';

/** Interface 6.5: the wait after failed attempt n (1 to 7); the eighth failure is final. */
export const RETRY_SCHEDULE_MS = [60_000, 5 * 60_000, 25 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000, 12 * 3600_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

export type DispatcherDeps = ComponentDeps;

export interface DispatcherLog {
  error(details: object, message: string): void;
}

export interface DispatcherOptions {
  log?: DispatcherLog;
  workerId?: string;
  /** Attempts in flight at once in this process, in the shared slots (the reserve is beyond them). */
  maxInFlight?: number;
  /** Attempts to one endpoint in flight at once in this process. */
  perEndpoint?: number;
  /** Attempts of one tenant (marketplace and mode) in flight at once in this process. */
  perTenant?: number;
  /** Slots past maxInFlight, used only by tenants with fewer than reservedPerTenant in flight. */
  reserve?: number;
  /** What a tenant may always have in flight while the shared slots are full (from the reserve). */
  reservedPerTenant?: number;
  /** Rows claimed by one statement. */
  batchSize?: number;
  /** How long a claim holds a row; longer than an attempt's 10 s deadline plus recording it. */
  leaseMs?: number;
  /** How far ahead a rate-limited endpoint's sending slots are claimed at least (each attempt waits for its slot); up to 1 s when claims are slow. */
  paceHorizonMs?: number;
  /** The longest wait between two looks at the table when nothing signalled. */
  maxPollMs?: number;
  /** Name resolution for destinations (tests give a fake DNS). */
  resolver?: Resolver;
}

interface Claim extends queries.ClaimedRow {
  lockedBy: string;
}

interface Outcome {
  claim: Claim;
  /** On the delivery's mode clock. */
  at: Date;
  result: AttemptResult | 'released';
  done: () => void;
}

const quiet: DispatcherLog = { error: () => undefined };

/** The furthest ahead a claim hands out sending slots, however slow claims get. */
const MAX_PACE_HORIZON_MS = 1_000;

export class DeliveryDispatcher implements ComponentLoop {
  readonly workerId: string;
  private log: DispatcherLog;
  private readonly maxInFlight: number;
  private readonly perEndpoint: number;
  private readonly perTenant: number;
  private readonly reserve: number;
  private readonly reservedPerTenant: number;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly maxPollMs: number;
  private readonly paceHorizonMs: number;
  private readonly senderLimit: number;
  private readonly resolver: Resolver;
  private sender: Sender;
  private readonly secrets = new Map<string, string>();
  private readonly inFlightByEndpoint = new KeySlots();
  /** Keyed `marketplace_id/mode`, as the claim statement names a tenant. */
  private readonly inFlightByTenant = new KeySlots();
  private readonly running = new Set<Promise<void>>();
  /** Attempts waiting for their sending slot: woken (and released) when the dispatcher stops. */
  private readonly sleepers = new Set<() => void>();
  private stopping = new AbortController();
  private inFlight = 0;
  private claimSeq = 0;
  /** How long a claim has been taking (a moving average, ms). */
  private claimMs = 0;
  private outcomes: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private loop: Promise<void> | null = null;
  private wakeLoop: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly deps: DispatcherDeps,
    options: DispatcherOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
    this.log = options.log ?? quiet;
    this.maxInFlight = options.maxInFlight ?? 512;
    this.perEndpoint = options.perEndpoint ?? 64;
    // Two endpoints' worth: one dead endpoint leaves its tenant half its slots, and four tenants
    // saturating the process still leave the reserve to everyone else.
    this.perTenant = options.perTenant ?? 128;
    this.reserve = options.reserve ?? 256;
    this.reservedPerTenant = options.reservedPerTenant ?? 8;
    this.batchSize = options.batchSize ?? 256;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxPollMs = options.maxPollMs ?? 100;
    // A claim every few ms while there is work, so 200 ms of slots keeps a fast rate (1,000/s) fed
    // through a slow claim, while holding few of this process's in-flight slots ahead of time.
    this.paceHorizonMs = options.paceHorizonMs ?? 200;
    // Connections per origin up to the process's whole in-flight limit: endpoints on one host share a
    // pool, and a dead one must not hold every connection of it (it holds at most its own cap).
    this.senderLimit = this.maxInFlight + this.reserve;
    this.resolver = options.resolver ?? systemResolver;
    this.sender = createSender(destinationRules(deps.config), this.resolver, this.senderLimit);
  }

  /** Starts the claim loop (the worker's component), logging to `log`. */
  start(log: DispatcherLog = this.log): void {
    if (this.loop) return;
    this.log = log;
    this.unsubscribe = this.deps.background.wakeUps.on((topic) => {
      if (topic === DISPATCHER) this.wakeLoop?.();
    });
    this.loop = this.run();
  }

  /**
   * Ends claiming, lets attempts under way finish (each has its 10 s deadline), records them. The
   * dispatcher can then start (or runDue) again, with a fresh connection pool.
   */
  async stop(graceMs = 11_000): Promise<void> {
    this.stopping.abort(new Error('dispatcher stopping'));
    for (const wake of [...this.sleepers]) wake();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.wakeLoop?.();
    await this.loop;
    await Promise.race([this.idle(), new Promise((resolve) => setTimeout(resolve, graceMs))]);
    await closeSender(this.sender);
    this.loop = null;
    this.stopping = new AbortController();
    this.sender = createSender(destinationRules(this.deps.config), this.resolver, this.senderLimit);
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
   * Claims every delivery due now (of one mode, or all) and starts them; with `wait`, resolves when
   * they are recorded. The test clock's advance and the tests use it; the loop does it continuously.
   */
  async runDue(only: Scope | null, options: { wait?: boolean } = {}): Promise<number> {
    let started = 0;
    for (;;) {
      const want = Math.max(1, Math.min(this.batchSize, this.room()));
      const claims = await this.claim(want, only);
      for (const claim of claims) this.launch(claim);
      started += claims.length;
      if (claims.length < want) break;
    }
    if (options.wait) await this.idle();
    return started;
  }

  private async run(): Promise<void> {
    let pollMs = 5;
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      const free = this.room();
      let want = 0;
      let got = 0;
      if (free > 0) {
        want = Math.min(this.batchSize, free);
        try {
          const claims = await this.claim(want, null);
          failures = 0;
          for (const claim of claims) this.launch(claim);
          got = claims.length;
        } catch (err) {
          failures++;
          this.log.error({ err, failures }, 'webhook delivery claim failed');
        }
      }
      if (this.stopping.signal.aborted) break;
      if (want > 0 && got === want) continue;
      pollMs = failures > 0 ? Math.min(10_000, 250 * 2 ** failures) : got > 0 ? 5 : Math.min(this.maxPollMs, pollMs * 2);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wakeLoop = done;
      });
      this.wakeLoop = null;
    }
  }

  /** Slots a claim may fill now: the shared ones left, or else the reserve's. */
  private room(): number {
    return this.inFlight < this.maxInFlight ? this.maxInFlight - this.inFlight : this.maxInFlight + this.reserve - this.inFlight;
  }

  private async claim(want: number, only: Scope | null): Promise<Claim[]> {
    const limit = Math.max(0, Math.min(want, this.room()));
    if (limit === 0) return [];
    const endpoints = this.inFlightByEndpoint.split(this.perEndpoint);
    // While shared slots are left, a tenant may fill up to its cap; once they are all taken, only
    // from the reserve, up to reservedPerTenant: a tenant at its cap (or past the reserved share)
    // is passed over unread, and every other tenant's rows are still claimed.
    const shared = this.inFlight < this.maxInFlight;
    const tenantCap = shared ? this.perTenant : this.reservedPerTenant;
    const tenants = this.inFlightByTenant.split(tenantCap);
    const lockedBy = `${this.workerId}#${++this.claimSeq}`;
    // Sending slots are handed out at least three claims ahead: a claim that takes 600 ms on a
    // loaded database would otherwise cap a rate-limited endpoint at one horizon per claim.
    const horizonMs = Math.min(MAX_PACE_HORIZON_MS, Math.max(this.paceHorizonMs, Math.round(3 * this.claimMs)));
    const claimStarted = this.deps.clock.nowMs();
    // One statement on its own (autocommit): one round trip per claim.
    const rows = await queries.claimDueDeliveries(this.deps.db, {
        realNow: new Date(this.deps.clock.nowMs()),
        limit,
        scan: limit,
        fullEndpoints: endpoints.full,
        partialEndpoints: endpoints.partial,
        partialSlots: endpoints.slots,
        perEndpoint: this.perEndpoint,
        fullTenants: tenants.full,
        partialTenants: tenants.partial,
        tenantSlots: tenants.slots,
        perTenant: tenantCap,
        lockedBy,
        leaseMs: this.leaseMs,
        horizonMs,
        only,
    });
    this.claimMs = 0.8 * this.claimMs + 0.2 * Math.max(0, this.deps.clock.nowMs() - claimStarted);
    // The rows become the claims (no copy per delivery).
    for (const row of rows as Claim[]) row.lockedBy = lockedBy;
    return rows as Claim[];
  }

  private secretOf(claim: Claim): string {
    let secret = this.secrets.get(claim.secret_enc);
    if (secret === undefined) {
      const scope: Scope = { marketplaceId: claim.marketplace_id, mode: claim.mode as Mode };
      secret = decryptSecret(this.deps.config.secretKey, claim.secret_enc, secretContext(scope, claim.endpoint_id));
      if (this.secrets.size > 10_000) this.secrets.clear();
      this.secrets.set(claim.secret_enc, secret);
    }
    return secret;
  }

  private launch(claim: Claim): void {
    this.inFlight++;
    this.inFlightByEndpoint.take(claim.endpoint_id);
    const tenant = `${claim.marketplace_id}/${claim.mode}`;
    this.inFlightByTenant.take(tenant);
    let slotHeld = true;
    // The slot is free once the receiver has answered: recording the outcome (batched) overlaps
    // with the next attempts, and the row's lease keeps it from being claimed again meanwhile.
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      this.inFlight--;
      const count = this.inFlightByEndpoint.give(claim.endpoint_id);
      const tenantCount = this.inFlightByTenant.give(tenant);
      // The endpoint, the tenant or the process was at its cap: due rows can be claimed now.
      if (count >= this.perEndpoint || tenantCount >= this.perTenant || this.inFlight >= this.maxInFlight - 1) this.wakeLoop?.();
    };
    const run = this.attempt(claim, freeSlot).finally(() => {
      freeSlot();
      this.running.delete(run);
    });
    this.running.add(run);
  }

  private async attempt(claim: Claim, freeSlot: () => void): Promise<void> {
    if (claim.send_at !== null && claim.rate !== null) await this.waitForSlot(claim.endpoint_id, claim.send_at.getTime(), claim.rate);
    const startedAt = new Date(this.deps.clock.nowMs() + claim.offset_ms);
    let result: AttemptResult | 'released';
    if (this.stopping.signal.aborted) result = 'released';
    else {
      try {
        result = await attemptDelivery(
          this.sender,
          { url: claim.url, secret: this.secretOf(claim), body: claim.request_body, eventId: claim.event_id, deliveryId: claim.id, mode: claim.mode as Mode },
          undefined,
        );
      } catch (err) {
        this.log.error({ err, delivery: claim.id }, 'webhook attempt failed unexpectedly');
        result = { ok: false, headers: {}, status: null, responseBody: null, error: 'internal_error', durationMs: 0 };
      }
    }
    freeSlot();
    await new Promise<void>((done) => {
      this.outcomes.push({ claim, at: startedAt, result, done });
      void this.flush();
    });
  }

  /**
   * A rate-limited endpoint's attempt starts at its sending slot (at most the horizon ahead), and
   * no sooner than 1/rate after this process's previous start to it: timers that fire late (a busy
   * event loop) would otherwise start several overdue slots at once. The spacing is counted from
   * when the previous start was due, not when its timer fired, so small delays do not add up and
   * slow the endpoint below its rate; after a long stall at most one overdue start is caught up.
   */
  private async waitForSlot(endpointId: string, slotMs: number, rate: number): Promise<void> {
    let atMs: number | null = slotMs;
    while (atMs !== null) {
      await this.sleepUntil(atMs);
      if (this.stopping.signal.aborted) return;
      atMs = this.deps.background.pacing.startOrWaitUntil(endpointId, rate, this.deps.clock.nowMs());
    }
  }

  /** Waits until the base clock reaches `atMs`, or the dispatcher stops. */
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
        await this.record(batch);
        for (const outcome of batch) outcome.done();
      }
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async record(batch: Outcome[]): Promise<void> {
    for (let failures = 0; ; failures++) {
      try {
        await this.write(batch);
        return;
      } catch (err) {
        // A deadlock with another worker's batch, or the database away: try again. Past the lease
        // the rows are claimed anew and these outcomes are dropped by the fence (attempted again).
        this.log.error({ err, failures, outcomes: batch.length }, 'webhook outcomes could not be recorded');
        if (failures >= 20) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 50 * 2 ** failures)));
      }
    }
  }

  private async write(batch: Outcome[]): Promise<void> {
    const released = batch.filter((o) => o.result === 'released').map((o) => o.claim);
    const attempted = batch.filter((o): o is Outcome & { result: AttemptResult } => o.result !== 'released');
    const settled: queries.SettledRow[] = attempted.map(({ claim, at, result }) => {
      const attempt = claim.attempts + 1;
      const endedAt = new Date(at.getTime() + result.durationMs);
      const final = result.ok || attempt >= MAX_ATTEMPTS;
      return {
        row_id: claim.row_id,
        marketplace_id: claim.marketplace_id,
        mode: claim.mode,
        id: claim.id,
        locked_by: claim.lockedBy,
        status: result.ok ? 'succeeded' : final ? 'failed' : 'pending',
        log: { at: at.toISOString(), status: result.status, duration_ms: result.durationMs, error: result.error },
        next_attempt_at: final ? null : new Date(endedAt.getTime() + RETRY_SCHEDULE_MS[attempt - 1]!).toISOString(),
        headers: result.headers,
        response_status: result.status,
        response_body: result.responseBody,
        error: result.error,
        completed_at: final ? endedAt.toISOString() : null,
      };
    });
    const health = healthOf(attempted);
    // One statement (one round trip, atomic on its own): endpoint health, then the deliveries.
    const toDisable = settled.length > 0 ? await queries.updateSettledDeliveries(this.deps.db, settled, health, AUTO_DISABLE_AFTER_MS) : [];
    await queries.releaseClaims(
      this.deps.db,
      released.map((c) => ({ marketplace_id: c.marketplace_id, mode: c.mode, id: c.id, locked_by: c.lockedBy })),
    );
    // Rare: each in a transaction of its own, which checks the rule again under the endpoint's lock.
    for (const endpoint of toDisable) {
      await this.deps.db.transaction((tx) =>
        autoDisableEndpoint(tx, { marketplaceId: endpoint.marketplace_id, mode: endpoint.mode }, endpoint.id, new Date(endpoint.at)),
      );
    }
  }
}

/** Per endpoint: the latest success of the batch, and the first failure after it. */
function healthOf(attempted: ReadonlyArray<{ claim: Claim; at: Date; result: AttemptResult }>): queries.EndpointHealth[] {
  const byEndpoint = new Map<string, queries.EndpointHealth>();
  const sorted = [...attempted].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const { claim, at, result } of sorted) {
    const key = `${claim.marketplace_id}/${claim.mode}/${claim.endpoint_id}`;
    let h = byEndpoint.get(key);
    if (!h) {
      h = { marketplace_id: claim.marketplace_id, mode: claim.mode, id: claim.endpoint_id, last_success: null, failing_from: null, latest_failure: null };
      byEndpoint.set(key, h);
    }
    const when = at.toISOString();
    if (result.ok) {
      h.last_success = when;
      h.failing_from = null;
    } else {
      h.failing_from ??= when;
      h.latest_failure = when;
    }
  }
  return [...byEndpoint.values()].sort((a, b) => (a.marketplace_id + a.mode + a.id < b.marketplace_id + b.mode + b.id ? -1 : 1));
}
