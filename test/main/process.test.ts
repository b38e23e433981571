// The real entry point, built and spawned as `node dist/main.js`: first start, restart, graceful
// shutdown with a request under way, configuration errors, roles. Kept to a few fast starts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/ports.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createWorkspaceWithOwner } from '../../src/modules/accounts/operations.js';
import { createMarketplace } from '../../src/modules/marketplaces/operations.js';
import { createServices } from '../../src/app/runtime.js';
import { scheduleTimer } from '../../src/workers/timers.js';
import { freshDatabase, TEST_SECRET_KEY, testConfig, usingPostgres } from '../helpers/harness.js';
import { redisAvailable, redisUrl } from '../helpers/servers.js';

// Starting PGlite on disk takes seconds of CPU; on a busy machine, much more.
const START_TIMEOUT_MS = 90_000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'mkt-main-'));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

function run(args: string[], env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['dist/main.js', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      const giveUpAt = Date.now() + timeoutMs;
      for (;;) {
        const match = text.match(pattern);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > giveUpAt) throw new Error(`did not print ${pattern}; output:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}


beforeAll(() => {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('node dist/main.js', () => {
  let secretKey = '';

  it('a first start that cannot listen (port taken) creates nothing, so the next start still shows the demo login', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const failed = run([], { PORT: String((taken.address() as { port: number }).port), DATA_DIR: dataDir });
      expect(await failed.exited).toBe(1);
      expect(failed.output()).toMatch(/^Start failed: .*EADDRINUSE/m);
      expect(failed.output()).not.toContain('demo@example.com');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, START_TIMEOUT_MS);

  it('first start on an empty embedded database creates the demo and prints its login and keys', async () => {
    const port = await freePort();
    const started = run([], { PORT: String(port), DATA_DIR: dataDir });
    const box = (await started.waitFor(/┌[\s\S]*└─+┘/))[0];
    expect(box).toContain(`http://127.0.0.1:${port}/v1`);
    expect(box).toContain(`http://127.0.0.1:${port}/manage/v1`);
    expect(box).toMatch(/Login\s+demo@example\.com/);
    expect(box).toMatch(/Password\s+[0-9A-Za-z]{20}/);
    secretKey = box.match(/Test secret key\s+(sk_test_[0-9A-Za-z]+)/)?.[1] ?? '';
    expect(box).toMatch(/Test publishable key\s+pk_test_[0-9A-Za-z]+/);

    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const marketplace = await fetch(`${base}/v1/marketplace`, { headers: { authorization: `Bearer ${secretKey}` } });
    expect(await marketplace.json()).toMatchObject({ name: 'Demo', currency: 'USD', livemode: false });

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, START_TIMEOUT_MS);

  it('a later start prints the URL only; SIGTERM lets the request under way finish, then exits 0', async () => {
    const port = await freePort();
    const started = run(['--role', 'all'], { PORT: String(port), DATA_DIR: dataDir });
    const box = (await started.waitFor(/┌[\s\S]*└─+┘/))[0];
    expect(box).toContain(`http://127.0.0.1:${port}/v1`);
    expect(box).not.toMatch(/sk_test_|Password/);

    // A request whose body is still arriving when SIGTERM comes. "Expect: 100-continue" tells us
    // when the server has taken the request in; the body follows after the signal.
    const body = JSON.stringify({ seconds: 60 });
    let sendRest!: () => void;
    const accepted = new Promise<void>((resolve) => (sendRest = resolve));
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/test_helpers/clock/advance',
          headers: {
            authorization: `Bearer ${secretKey}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            expect: '100-continue',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.on('continue', () => {
        sendRest();
        accepted.then(() => new Promise((resolve) => setTimeout(resolve, 500))).then(() => req.end(body), reject);
      });
      req.flushHeaders();
    });
    await accepted;
    started.child.kill('SIGTERM');
    // New connections are refused while the request under way is still waiting for its body.
    await expect.poll(() => fetch(`http://127.0.0.1:${port}/healthz`).then(() => 'answered', () => 'refused'), { timeout: 5000 }).toBe('refused');
    expect(started.child.exitCode).toBeNull();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ object: 'test_clock', offset_seconds: 60 });
    expect(await started.exited).toBe(0);
  }, START_TIMEOUT_MS);

  it('a bad setting exits 1 naming the variable', async () => {
    const started = run([], { PORT: 'abc', DATA_DIR: dataDir });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/^Configuration error: PORT: /m);
  });

  it('an unknown role exits 2; a split role without DATABASE_URL exits 1 naming it', async () => {
    const bogus = run(['--role', 'bogus'], { DATA_DIR: dataDir });
    expect(await bogus.exited).toBe(2);
    expect(bogus.output()).toContain("Unknown role 'bogus'");
    const worker = run(['--role', 'worker'], { DATA_DIR: dataDir });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toMatch(/^Configuration error: DATABASE_URL: /m);
  });

  it.runIf(usingPostgres && redisAvailable)('two --role api processes with one REDIS_URL share a key\'s rate limit', async () => {
    const database = await freshDatabase();
    const services = await createServices(testConfig(), { clock: systemClock, db: database.db });
    const { workspace } = await createWorkspaceWithOwner(database.db, systemClock, {
      email: 'limits@example.com', password: 'correct horse battery', workspaceName: 'Limits',
    });
    const { marketplace, api_keys } = await createMarketplace(database.db, systemClock, { workspaceId: workspace.id, name: 'L', currency: 'USD' });
    // 1 a second: a burst of 2, for both processes together (a bucket each would allow 4).
    await database.db.query(
      `UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '1') WHERE marketplace_id = $1`,
      [marketplace.id],
    );
    const env = {
      DATABASE_URL: database.url ?? '',
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl ?? '',
    };
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port) => run(['--role', 'api'], { ...env, PORT: String(port) }));
    try {
      for (const port of ports) {
        await expect
          .poll(() => fetch(`http://127.0.0.1:${port}/readyz`).then((res) => res.status, () => 0), { timeout: 30_000, interval: 100 })
          .toBe(200);
      }
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetch(`http://127.0.0.1:${ports[i % 2]}/v1/marketplace`, { headers: { authorization: `Bearer ${api_keys.test.secret_key}` } }).then(
            (res) => res.status,
          ),
        ),
      );
      const allowed = statuses.filter((status) => status === 200).length;
      expect(allowed).toBeGreaterThanOrEqual(2);
      expect(allowed).toBeLessThanOrEqual(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10 - allowed);
    } finally {
      for (const api of apis) api.child.kill('SIGTERM');
      await Promise.all(apis.map((api) => api.exited));
      await services.rateLimiter.close();
      await database.drop();
    }
  }, START_TIMEOUT_MS);

  it.runIf(usingPostgres)('--role worker with DATABASE_URL runs due timers and periodic jobs', async () => {
    const database = await freshDatabase();
    const services = await createServices(testConfig(), { clock: systemClock, db: database.db });
    const { workspace } = await createWorkspaceWithOwner(database.db, systemClock, {
      email: 'ops@example.com', password: 'correct horse battery', workspaceName: 'Ops',
    });
    const { marketplace } = await createMarketplace(database.db, systemClock, { workspaceId: workspace.id, name: 'Ops', currency: 'USD' });
    const scope = { marketplaceId: marketplace.id, mode: 'test' as const };
    // No handler knows this kind: the worker's attempt is recorded on the row, which shows it ran.
    await database.db.transaction((tx) => scheduleTimer(tx, scope, 'test.unhandled', 'subject', new Date(Date.now() - 1000)));
    await database.db.query(
      `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, created_at) VALUES ($1, 'test', 'old', 'f', $2)`,
      [marketplace.id, new Date(Date.now() - 25 * 3600_000)],
    );

    const started = run(['--role', 'worker'], { DATABASE_URL: database.url ?? '', SECRET_KEY: TEST_SECRET_KEY, DATA_DIR: dataDir });
    const giveUpAt = Date.now() + 15_000;
    for (;;) {
      const [timer] = await database.db.query<{ attempts: number; last_error: string | null }>(
        "SELECT attempts, last_error FROM timers WHERE kind = 'test.unhandled'",
      );
      const keys = await database.db.query('SELECT 1 FROM idempotency_keys');
      if (timer && timer.attempts > 0 && keys.length === 0) {
        expect(timer.last_error).toContain("no handler for timer kind 'test.unhandled'");
        break;
      }
      if (Date.now() > giveUpAt) throw new Error(`worker did not run; output:\n${started.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    await services.rateLimiter.close();
    await database.drop();
  }, START_TIMEOUT_MS);
});
