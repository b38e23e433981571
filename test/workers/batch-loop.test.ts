// The engine's batch loop (src/workers/batch-loop.ts) on a kind of its own, kept in memory: what
// each claim is asked for (caps per key family, the reserve, a fresh fence token), outcomes
// recorded in batches, a wake-up of the kind's name, and a stop that hands back the attempts
// still waiting for their sending slot. The webhook deliveries are such a kind on their rows
// (test/modules/webhooks: dispatcher, fairness, crash, delivery-controls).
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { ComponentDeps } from '../../src/contracts/engine.js';
import { BatchLoop, type BatchClaim, type BatchKind, type BatchOutcome } from '../../src/workers/batch-loop.js';
import { Pacer } from '../../src/workers/pacing.js';
import { WakeUps } from '../../src/workers/wake.js';
import { gate, quiet, waitFor } from './helpers.js';

type Family = 'endpoint' | 'tenant';

interface Row {
  id: number;
  endpoint: string;
  tenant: string;
  /** A sending slot (base clock ms), or null. */
  at: number | null;
}

/** Rows in memory, claimed the way a kind's statement would: keys at a cap passed over, the others up to their slots. */
class MemoryKind implements BatchKind<Row, string, Family> {
  readonly name = 'memory_kind';
  readonly claims: Array<BatchClaim<Family>> = [];
  readonly batches: Array<ReadonlyArray<BatchOutcome<Row, string>>> = [];
  readonly held = new Map<number, () => void>();
  stoppedCount = 0;
  hold = false;

  constructor(private pending: Row[]) {}

  add(rows: Row[]): void {
    this.pending.push(...rows);
  }

  async claim(c: BatchClaim<Family>): Promise<Row[]> {
    this.claims.push(c);
    const left = (family: Family, key: string) => {
      const slots = c.caps[family];
      if (slots.full.includes(key)) return 0;
      const i = slots.partial.indexOf(key);
      return i >= 0 ? slots.slots[i]! : slots.cap;
    };
    const taken: Row[] = [];
    const count = new Map<string, number>();
    for (const row of this.pending) {
      if (taken.length >= c.limit) break;
      const e = count.get(row.endpoint) ?? 0;
      const t = count.get(row.tenant) ?? 0;
      if (e >= left('endpoint', row.endpoint) || t >= left('tenant', row.tenant)) continue;
      count.set(row.endpoint, e + 1);
      count.set(row.tenant, t + 1);
      taken.push(row);
    }
    this.pending = this.pending.filter((row) => !taken.includes(row));
    return taken;
  }

  keysOf(row: Row): Record<Family, string> {
    return { endpoint: row.endpoint, tenant: row.tenant };
  }

  paceOf(row: Row) {
    return row.at === null ? null : { key: row.endpoint, atMs: row.at, rate: 1 };
  }

  async attempt(row: Row): Promise<string> {
    if (this.hold) {
      const { promise, open } = gate();
      this.held.set(row.id, open);
      await promise;
    }
    return `done ${row.id}`;
  }

  failed(): string {
    return 'threw';
  }

  async record(batch: ReadonlyArray<BatchOutcome<Row, string>>): Promise<void> {
    this.batches.push(batch);
  }

  async stopped(): Promise<void> {
    this.stoppedCount++;
  }
}

function deps(): ComponentDeps {
  return { clock: systemClock, background: { wakeUps: new WakeUps(), pacing: new Pacer() } } as unknown as ComponentDeps;
}

const rows = (n: number, endpoint: (i: number) => string, tenant: (i: number) => string, from = 0): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, endpoint: endpoint(i), tenant: tenant(i), at: null }));

function loop(kind: MemoryKind, services = deps(), over: { busy?: number; idle?: number } = {}) {
  return new BatchLoop(services, kind, {
    log: quiet,
    workerId: 'w',
    concurrency: 4,
    caps: { endpoint: 2, tenant: 3 },
    reserve: { slots: 2, family: 'tenant', perKey: 1 },
    batchSize: 10,
    leaseMs: 30_000,
    paceHorizonMs: { min: 200, max: 1000 },
    pollMs: { busy: over.busy ?? 5, idle: over.idle ?? 20 },
  });
}

describe('the batch loop', () => {
  it('hands each claim the keys at their caps, the reserve once the shared slots are full, and a fresh fence token', async () => {
    const kind = new MemoryKind(rows(8, (i) => `e${i % 2}`, () => 'A'));
    kind.hold = true;
    const runner = loop(kind);
    await runner.runDue(null);
    // Tenant A's cap (3) bounds the first claim; its endpoints hold 2 and 1.
    expect(kind.held.size).toBe(3);
    kind.add(rows(3, () => 'b', () => 'B', 100));
    await runner.runDue(null);
    const second = kind.claims[1]!;
    expect(second.limit).toBe(1);
    expect(second.caps.tenant).toMatchObject({ full: ['A'], partial: [], cap: 3 });
    expect(second.caps.endpoint).toMatchObject({ full: ['e0'], partial: ['e1'], slots: [1], cap: 2 });
    // The shared slots (4) are full now (A 3, B 1): the reserve (2) is open to tenants below 1 in flight.
    expect(kind.held.size).toBe(4);
    const reserved = kind.claims[2]!;
    expect(reserved.limit).toBe(2);
    expect(reserved.caps.tenant).toMatchObject({ full: ['A', 'B'], cap: 1 });
    kind.add(rows(1, () => 'c', () => 'C', 200));
    await runner.runDue(null);
    expect(kind.held.has(200)).toBe(true);
    expect(new Set(kind.claims.map((c) => c.token)).size).toBe(kind.claims.length);
    expect(kind.claims.every((c) => c.token.startsWith('w#') && c.leaseMs === 30_000)).toBe(true);
    for (const open of kind.held.values()) open();
    await runner.idle();
    const recorded = kind.batches.flat();
    expect(recorded).toHaveLength(5);
    expect(recorded.every((o) => !o.released && o.result === `done ${o.item.id}`)).toBe(true);
  });

  it('records outcomes that finish together in one batch', async () => {
    const kind = new MemoryKind(rows(3, (i) => `e${i}`, (i) => `t${i}`));
    const runner = loop(kind);
    await runner.runDue(null, { wait: true });
    expect(kind.batches.flat()).toHaveLength(3);
    expect(kind.batches.length).toBeLessThan(3);
  });

  it('claims at once on a wake-up of its name, however long its idle poll', async () => {
    const services = deps();
    const kind = new MemoryKind([]);
    // The first look finds nothing; the next poll would be 20 s later.
    const runner = loop(kind, services, { busy: 10_000, idle: 60_000 });
    runner.start(quiet);
    try {
      await waitFor(() => kind.claims.length >= 1);
      const before = kind.claims.length;
      kind.add(rows(1, () => 'e', () => 't'));
      services.background.wakeUps.signal('some_other_kind');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(kind.batches).toHaveLength(0);
      services.background.wakeUps.signal(kind.name);
      await waitFor(() => kind.batches.flat().length === 1, 2_000);
      expect(kind.claims.length).toBeGreaterThan(before);
    } finally {
      await runner.stop();
    }
  });

  it('hands back on stop the attempts still waiting for their sending slot, and may start again', async () => {
    const kind = new MemoryKind([{ id: 1, endpoint: 'e', tenant: 't', at: Date.now() + 60_000 }]);
    const runner = loop(kind);
    await runner.runDue(null);
    await runner.stop(1_000);
    expect(kind.batches.flat()).toEqual([{ item: expect.objectContaining({ id: 1 }), released: true }]);
    expect(kind.stoppedCount).toBe(1);
    kind.add(rows(1, () => 'e', () => 't', 2));
    await runner.runDue(null, { wait: true });
    expect(kind.batches.flat().at(-1)).toMatchObject({ released: false, result: 'done 2' });
  });
});
