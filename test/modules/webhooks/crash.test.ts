// A worker process killed (SIGKILL) with attempts in flight: afterwards every delivery succeeded
// and was recorded succeeded once; none was lost. Attempts the dead worker had made but not
// recorded are made again by the next worker once their lease ends (at-least-once to the
// receiver). PostgreSQL only: PGlite is one process's memory.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryDispatcher } from '../../../src/modules/webhooks/dispatcher.js';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, usingPostgres, type TestContext } from '../../helpers/harness.js';
import { waitFor } from '../../workers/helpers.js';
import { createEndpoint, startReceiver, type Receiver } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CRASH_LEASE_MS = 3000;
const EVENTS = 60;
const ANSWERED_BEFORE_KILL = 20;

let ctx: TestContext;
let receiver: Receiver;

describe.runIf(usingPostgres)('a worker killed with attempts in flight', () => {
  beforeAll(async () => {
    ctx = await startTestApp();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it('loses no delivery and records none succeeded twice', { timeout: 120_000 }, async () => {
    let answering = false;
    let answered = 0;
    const held: Array<() => void> = [];
    receiver.on('/crash', (_req, res) => {
      if (answering || answered < ANSWERED_BEFORE_KILL) {
        answered++;
        res.end('ok');
      } else held.push(() => res.end('late'));
    });
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/crash'), enabled_events: ['seller.created'] });
    for (let i = 0; i < EVENTS; i++) await createSeller(ctx);

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/modules/webhooks/fixtures/doomed-dispatcher.ts', ctx.databaseUrl!, String(CRASH_LEASE_MS)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await waitFor(async () => {
      const [row] = await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'",
        [endpoint.id],
      );
      return held.length + answered >= EVENTS && row!.n >= ANSWERED_BEFORE_KILL;
    }, 60_000).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${output}`);
    });
    const inFlight = await ctx.db.query<{ id: string }>(
      "SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND locked_by LIKE 'doomed#%'",
      [endpoint.id],
    );
    expect(inFlight.length).toBe(EVENTS - ANSWERED_BEFORE_KILL);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // The dead worker's requests get their answers too late for anyone to record.
    answering = true;
    for (const release of held) release();

    const survivor = createDeliveryDispatcher(ctx.services, { workerId: 'survivor', leaseMs: CRASH_LEASE_MS, maxPollMs: 50 });
    survivor.start();
    await waitFor(async () => {
      const [row] = await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'",
        [endpoint.id],
      );
      return row!.n === EVENTS;
    }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await survivor.stop();

    const rows = await ctx.db.query<{ id: string; status: string; attempts: number; attempt_log: Array<{ status: number | null }> }>(
      'SELECT id, status, attempts, attempt_log FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
    expect(rows).toHaveLength(EVENTS);
    for (const row of rows) {
      expect(row.status).toBe('succeeded');
      expect(row.attempts).toBe(1);
      expect(row.attempt_log.filter((entry) => entry.status === 200)).toHaveLength(1);
    }
    const taken = new Set(inFlight.map((r) => r.id));
    const redelivered = receiver.received.filter((r) => taken.has(r.headers['service-delivery-id'] as string));
    // Each of them reached the receiver twice: once from the dead worker, once from the survivor.
    expect(redelivered.length).toBe(2 * taken.size);
  });
});
