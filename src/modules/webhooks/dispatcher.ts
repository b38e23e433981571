// The delivery dispatcher: webhook deliveries as a batch kind of the background engine
// (src/workers/batch-loop.ts). The delivery rows themselves are the work. What is the engine's:
// the claim loop, the lease with a fence token per claim, the per-key caps of this process and
// its reserve, the pacing of rate-limited keys, the batching of outcomes, the wake-ups and the
// stop. What is this module's, here: which rows are due and how they are claimed (queries.ts:
// the endpoints' order, rate limits and per-object ordering, the tenants' turns), how an attempt
// is sent (attempt.ts), the retry schedule, the endpoint's health and its automatic disable. The
// caps' families are the endpoint and the tenant (a marketplace and mode), and the reserve is the
// tenants' (docs/webhooks.md, "Fair delivery between tenants"). The composition root builds one
// per process (the webhooks manifest's component); the worker starts it and the test clock's
// advance runs it.
import type { ComponentDeps } from '../../contracts/engine.js';
import type { Mode, Scope } from '../../scope.js';
import { decryptSecret } from '../../secrets.js';
import { BatchLoop, type BatchClaim, type BatchKind, type BatchOutcome } from '../../workers/batch-loop.js';
import type { EngineLog } from '../../workers/engine.js';
import { attemptDelivery, closeSender, createSender, type AttemptResult, type Sender } from './attempt.js';
import { destinationRules, systemResolver, type Resolver } from './destination.js';
import { AUTO_DISABLE_AFTER_MS, autoDisableEndpoint } from './health.js';
import { secretContext } from './operations.js';
import * as queries from './queries.js';
import { DISPATCHER } from './wake.js';

/** Interface 6.5: the wait after failed attempt n (1 to 7); the eighth failure is final. */
export const RETRY_SCHEDULE_MS = [60_000, 5 * 60_000, 25 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000, 12 * 3600_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

export interface DispatcherOptions {
  log?: EngineLog;
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

/** The caps' families: an endpoint's attempts, a tenant's. */
type Family = 'endpoint' | 'tenant';

/** A claimed row (the claim's own object: no copy per delivery) and the token it was claimed under. */
interface Claim extends queries.ClaimedRow {
  lockedBy: string;
}

interface Attempted {
  /** When the attempt started, on the delivery's mode clock. */
  at: Date;
  result: AttemptResult;
}

/** The furthest ahead a claim hands out sending slots, however slow claims get. */
const MAX_PACE_HORIZON_MS = 1_000;

const quiet: EngineLog = { error: () => undefined };

/** The dispatcher of one process: the engine's batch loop over the delivery kind. */
export type DeliveryDispatcher = BatchLoop<Claim, Attempted, Family>;

export function createDeliveryDispatcher(deps: ComponentDeps, options: DispatcherOptions = {}): DeliveryDispatcher {
  const maxInFlight = options.maxInFlight ?? 512;
  const reserve = options.reserve ?? 256;
  // Connections per origin up to the process's whole in-flight limit: endpoints on one host share a
  // pool, and a dead one must not hold every connection of it (it holds at most its own cap).
  const kind = new DeliveryKind(deps, options.resolver ?? systemResolver, maxInFlight + reserve);
  return new BatchLoop(deps, kind, {
    log: options.log ?? quiet,
    ...(options.workerId !== undefined ? { workerId: options.workerId } : {}),
    concurrency: maxInFlight,
    // Two endpoints' worth per tenant: one dead endpoint leaves its tenant half its slots, and four
    // tenants saturating the process still leave the reserve to everyone else.
    caps: { endpoint: options.perEndpoint ?? 64, tenant: options.perTenant ?? 128 },
    reserve: { slots: reserve, family: 'tenant', perKey: options.reservedPerTenant ?? 8 },
    batchSize: options.batchSize ?? 256,
    leaseMs: options.leaseMs ?? 30_000,
    // A claim every few ms while there is work, so 200 ms of slots keeps a fast rate (1,000/s) fed
    // through a slow claim, while holding few of this process's in-flight slots ahead of time.
    paceHorizonMs: { min: options.paceHorizonMs ?? 200, max: MAX_PACE_HORIZON_MS },
    pollMs: { busy: 5, idle: options.maxPollMs ?? 100 },
  });
}

class DeliveryKind implements BatchKind<Claim, Attempted, Family> {
  readonly name = DISPATCHER;
  private sender: Sender;
  /** Decrypted endpoint secrets by their sealed form (bounded; a secret rotated is a new key). */
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly deps: ComponentDeps,
    private readonly resolver: Resolver,
    private readonly senderLimit: number,
  ) {
    this.sender = createSender(destinationRules(deps.config), resolver, senderLimit);
  }

  async claim(c: BatchClaim<Family>): Promise<Claim[]> {
    const { endpoint, tenant } = c.caps;
    // One statement on its own (autocommit): one round trip per claim (R6, docs/performance.md).
    const rows = await queries.claimDueDeliveries(this.deps.db, {
      realNow: c.realNow,
      limit: c.limit,
      scan: c.limit,
      fullEndpoints: endpoint.full,
      partialEndpoints: endpoint.partial,
      partialSlots: endpoint.slots,
      perEndpoint: endpoint.cap,
      fullTenants: tenant.full,
      partialTenants: tenant.partial,
      tenantSlots: tenant.slots,
      perTenant: tenant.cap,
      lockedBy: c.token,
      leaseMs: c.leaseMs,
      horizonMs: c.paceHorizonMs,
      only: c.only,
    });
    // The rows become the claims (no copy per delivery).
    for (const row of rows as Claim[]) row.lockedBy = c.token;
    return rows as Claim[];
  }

  keysOf(claim: Claim): Record<Family, string> {
    return { endpoint: claim.endpoint_id, tenant: `${claim.marketplace_id}/${claim.mode}` };
  }

  paceOf(claim: Claim): { key: string; atMs: number; rate: number } | null {
    return claim.send_at !== null && claim.rate !== null ? { key: claim.endpoint_id, atMs: claim.send_at.getTime(), rate: claim.rate } : null;
  }

  async attempt(claim: Claim): Promise<Attempted> {
    const at = new Date(this.deps.clock.nowMs() + claim.offset_ms);
    const result = await attemptDelivery(
      this.sender,
      { url: claim.url, secret: this.secretOf(claim), body: claim.request_body, eventId: claim.event_id, deliveryId: claim.id, mode: claim.mode as Mode },
      undefined,
    );
    return { at, result };
  }

  /** An attempt that threw (not a failure of the receiver's: those are results) is recorded as `internal_error`. */
  failed(claim: Claim): Attempted {
    const at = new Date(this.deps.clock.nowMs() + claim.offset_ms);
    return { at, result: { ok: false, headers: {}, status: null, responseBody: null, error: 'internal_error', durationMs: 0 } };
  }

  async stopped(): Promise<void> {
    // A fresh connection pool for the next start.
    await closeSender(this.sender);
    this.sender = createSender(destinationRules(this.deps.config), this.resolver, this.senderLimit);
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

  async record(batch: ReadonlyArray<BatchOutcome<Claim, Attempted>>): Promise<void> {
    const released: Claim[] = [];
    const attempted: Array<{ claim: Claim; at: Date; result: AttemptResult }> = [];
    for (const outcome of batch) {
      if (outcome.released) released.push(outcome.item);
      else attempted.push({ claim: outcome.item, at: outcome.result.at, result: outcome.result.result });
    }
    const settled = attempted.map(({ claim, at, result }) => settledRow(claim, at, result));
    // One statement (one round trip, atomic on its own: R6): endpoint health, then the deliveries.
    const toDisable =
      settled.length > 0 ? await queries.updateSettledDeliveries(this.deps.db, settled, healthOf(attempted), AUTO_DISABLE_AFTER_MS) : [];
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

/** The delivery's row after the attempt: done, failed for good, or pending its retry by the schedule. */
function settledRow(claim: Claim, at: Date, result: AttemptResult): queries.SettledRow {
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
