// Issue 22, item 4: the API process killed with SIGKILL while orders with Idempotency-Keys are in
// flight, then started again. Every retried key answers its order (replayed) or runs anew at its
// first retry, within 5 s of the restart, and no key ever makes two orders. PostgreSQL: requests
// are held in flight on a listing row the test locks, a second API process refuses their keys
// while the first lives and runs them as soon as it is dead. PGlite: the claims left in the files
// are abandoned by the restart. The rule itself: test/http/claim-owners.test.ts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createDb } from '../../src/db/db.js';
import { pgliteDriver } from '../../src/db/drivers.js';
import { fingerprint } from '../../src/http/idempotency.js';
import { createWorkspaceWithOwner } from '../../src/modules/accounts/operations.js';
import { createMarketplace } from '../../src/modules/marketplaces/operations.js';
import { closeServices, createServices } from '../../src/app/runtime.js';
import { freshDatabase, TEST_SECRET_KEY, testConfig, usingPostgres } from '../helpers/harness.js';
import type { Json } from '../helpers/factories.js';
import { freePort } from '../helpers/ports.js';

const START_TIMEOUT_MS = 180_000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'mkt-crash-'));

beforeAll(() => {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Api {
  child: ChildProcess;
  base: string;
  exited: Promise<unknown>;
  output: () => string;
}

async function startApi(args: string[], env: Record<string, string>): Promise<Api> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/main.js', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', SECRET_KEY: TEST_SECRET_KEY, DATA_DIR: dataDir, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  await expect
    .poll(() => fetch(`${base}/readyz`).then((res) => res.status, () => (child.exitCode === null ? 0 : -1)), { timeout: 90_000, interval: 100 })
    .toBe(200);
  return { child, base, exited, output: () => text };
}

async function kill(api: Api, signal: NodeJS.Signals = 'SIGKILL') {
  api.child.kill(signal);
  await api.exited;
}

/** A marketplace made before the processes start (on PGlite, in the files they will open). */
async function provision(env: Record<string, string>, db?: Awaited<ReturnType<typeof freshDatabase>>['db']): Promise<{ secretKey: string; marketplaceId: string }> {
  const services = await createServices(testConfig(env), { clock: systemClock, ...(db ? { db } : {}) });
  try {
    const { workspace } = await createWorkspaceWithOwner(services.db, systemClock, {
      email: 'crash@example.com',
      password: 'correct horse battery',
      workspaceName: 'Crash',
    });
    const { marketplace, api_keys } = await createMarketplace(services.db, systemClock, { workspaceId: workspace.id, name: 'Crash', currency: 'USD' });
    // The load is the point, not the rate limit.
    await services.db.query(
      `UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '10000') WHERE marketplace_id = $1`,
      [marketplace.id],
    );
    return { secretKey: api_keys.test.secret_key, marketplaceId: marketplace.id };
  } finally {
    if (db) await services.rateLimiter.close();
    else await closeServices(services);
  }
}

function client(base: string, secretKey: string) {
  return async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${base}/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${secretKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', body: (await res.json()) as Json };
  };
}

async function listingToOrder(call: ReturnType<typeof client>): Promise<{ buyer: string; listing: string }> {
  const seller = await call('POST', '/sellers', { name: 'Ada' });
  const buyer = await call('POST', '/buyers', { name: 'Grace' });
  const listing = await call('POST', '/listings', { seller: seller.body.id, title: 'Shoes', price: { amount: 4500, currency: 'USD' }, quantity: 300 });
  expect((await call('POST', `/listings/${listing.body.id}/publish`)).status).toBe(200);
  return { buyer: buyer.body.id, listing: listing.body.id };
}

const orderBody = (parties: { buyer: string; listing: string }, key: string) => ({ ...parties, quantity: 1, metadata: { key } });

/** Every order of the listing, by the key in its metadata. */
async function ordersByKey(call: ReturnType<typeof client>, listing: string): Promise<Map<string, string[]>> {
  const byKey = new Map<string, string[]>();
  const page = await call('GET', `/orders?listing=${listing}&limit=100`);
  expect(page.body.has_more).toBe(false);
  for (const order of page.body.data as Array<{ id: string; metadata: { key: string } }>) {
    byKey.set(order.metadata.key, [...(byKey.get(order.metadata.key) ?? []), order.id]);
  }
  return byKey;
}

/** Each key's retry: 201, the same order where the first answer arrived; then one order per key. */
async function retryAll(
  call: ReturnType<typeof client>,
  parties: { buyer: string; listing: string },
  keys: string[],
  answered: Map<string, string>,
) {
  const results = await Promise.all(keys.map((key) => call('POST', '/orders', orderBody(parties, key), key)));
  results.forEach((res, i) => {
    expect(res.status, `${keys[i]}: ${JSON.stringify(res.body)}`).toBe(201);
    const first = answered.get(keys[i]!);
    if (first !== undefined) {
      expect(res.replayed).toBe(true);
      expect(res.body.id).toBe(first);
    }
  });
  return results;
}

describe.runIf(usingPostgres)('PostgreSQL: the API process killed with keyed orders in flight', () => {
  it('a second process refuses their keys while the first lives, runs them once it is killed; after the restart every key answers at once, and none ran twice', async () => {
    const database = await freshDatabase();
    const { secretKey } = await provision({}, database.db);
    const env = { DATABASE_URL: database.url ?? '' };
    const [a, b] = await Promise.all([startApi(['--role', 'api'], env), startApi(['--role', 'api'], env)]);
    let restarted: Api | null = null;
    const locker = new pg.Client({ connectionString: database.url ?? '' });
    try {
      const callA = client(a.base, secretKey);
      const callB = client(b.base, secretKey);
      const parties = await listingToOrder(callA);
      const answered = new Map<string, string>();
      const doneKeys = Array.from({ length: 5 }, (_, i) => `done-${i}`);
      for (const key of doneKeys) {
        const res = await callA('POST', '/orders', orderBody(parties, key), key);
        expect(res.status).toBe(201);
        answered.set(key, res.body.id as string);
      }

      // The listing's row locked: every order reaches its claim, then waits on the reservation.
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM listings WHERE id = $1 FOR UPDATE', [parties.listing]);
      const flightKeys = Array.from({ length: 12 }, (_, i) => `flight-${i}`);
      const inFlight = flightKeys.map((key) => callA('POST', '/orders', orderBody(parties, key), key).catch(() => null));
      await expect
        .poll(
          async () =>
            (await database.db.query('SELECT 1 FROM idempotency_keys WHERE key LIKE $1 AND response_status IS NULL', ['flight-%'])).length,
          { timeout: 20_000, interval: 50 },
        )
        .toBe(flightKeys.length);

      // A slow live request keeps its claim: the other process refuses the key.
      const whileAlive = await callB('POST', '/orders', orderBody(parties, 'flight-0'), 'flight-0');
      expect(whileAlive.status).toBe(409);
      expect(whileAlive.body.error.code).toBe('idempotency_key_in_use');

      await kill(a);
      expect(await Promise.all(inFlight)).toEqual(flightKeys.map(() => null));
      await locker.query('ROLLBACK');

      // No restart needed where another process serves: the dead process's claims run at once.
      const half = flightKeys.slice(0, 6);
      const sooner = Date.now();
      await retryAll(callB, parties, half, answered);
      expect(Date.now() - sooner).toBeLessThan(5000);

      restarted = await startApi(['--role', 'api'], env);
      const ready = Date.now();
      const callAgain = client(restarted.base, secretKey);
      await retryAll(callAgain, parties, [...doneKeys, ...flightKeys.slice(6)], answered);
      expect(Date.now() - ready).toBeLessThan(5000);

      const byKey = await ordersByKey(callAgain, parties.listing);
      expect([...byKey.keys()].sort()).toEqual([...doneKeys, ...flightKeys].sort());
      for (const [key, ids] of byKey) expect(ids, key).toHaveLength(1);
      const listing = await callAgain('GET', `/listings/${parties.listing}`);
      expect(listing.body.quantity_available).toBe(300 - doneKeys.length - flightKeys.length);
    } finally {
      await locker.end().catch(() => undefined);
      await Promise.all([a, b, restarted].map((api) => (api && api.child.exitCode === null ? kill(api, 'SIGTERM') : undefined)));
      await database.drop();
    }
  }, START_TIMEOUT_MS);
});

describe.runIf(!usingPostgres)('PGlite: the process killed with keyed orders in flight', () => {
  // One process serves PGlite's files, and it answers a burst of orders one after the other, so a
  // kill seldom lands between a claim and its answer: the claims such a kill leaves are written
  // into the files while the process is down, beside the real kill mid-load.
  it('the restart abandons the claims the kill left; every key answers at its first retry, and none ran twice', async () => {
    const { secretKey, marketplaceId } = await provision({ DATA_DIR: dataDir });
    let api: Api | null = await startApi([], {});
    try {
      const call = client(api.base, secretKey);
      const parties = await listingToOrder(call);
      const answered = new Map<string, string>();
      const keys = Array.from({ length: 40 }, (_, i) => `load-${i}`);
      // Killed mid-load: once a quarter of the orders have answered.
      let quarter!: () => void;
      const quarterAnswered = new Promise<void>((resolve) => (quarter = resolve));
      const load = keys.map((key) =>
        call('POST', '/orders', orderBody(parties, key), key).then(
          (res) => {
            expect(res.status).toBe(201);
            answered.set(key, res.body.id as string);
            if (answered.size >= keys.length / 4) quarter();
          },
          () => undefined,
        ),
      );
      await quarterAnswered;
      await kill(api);
      api = null;
      await Promise.all(load);
      const cut = new Map(answered);
      expect(cut.size).toBeLessThan(keys.length);

      // Claims as a kill between claim and answer leaves them (on the old rule: 60 s of 409s).
      const stranded = Array.from({ length: 5 }, (_, i) => `stranded-${i}`);
      const files = createDb(await pgliteDriver(join(dataDir, 'pglite')));
      for (const key of stranded) {
        const print = fingerprint({ method: 'POST', url: '/v1/orders', body: orderBody(parties, key) } as FastifyRequest);
        await files.query(
          `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, locked_until, created_at, request_id)
           VALUES ($1, 'test', $2, $3, $4, $5, 'req_killed')`,
          [marketplaceId, key, print, new Date(Date.now() + 60_000), new Date()],
        );
      }
      const [left] = await files.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE response_status IS NULL');
      await files.close();
      expect(left!.n).toBeGreaterThanOrEqual(stranded.length);

      api = await startApi([], {});
      const ready = Date.now();
      const again = client(api.base, secretKey);
      await retryAll(again, parties, [...keys, ...stranded], cut);
      expect(Date.now() - ready).toBeLessThan(5000);

      const byKey = await ordersByKey(again, parties.listing);
      expect([...byKey.keys()].sort()).toEqual([...keys, ...stranded].sort());
      for (const [key, ids] of byKey) expect(ids, key).toHaveLength(1);
      expect((await again('GET', `/listings/${parties.listing}`)).body.quantity_available).toBe(300 - keys.length - stranded.length);
    } finally {
      if (api) await kill(api, 'SIGTERM');
    }
  }, START_TIMEOUT_MS);
});
