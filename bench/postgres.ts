// What every benchmark needs of the PostgreSQL server and the machine: the admin connection
// (DATABASE_URL, default the local server), a URL for another database on it, a free port, and
// the API as a process of its own on a database.
import './ids.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `fn` on a fresh connection to the admin database, closed after. */
export async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The admin URL pointed at database `name` on the same server. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Starts `src/main.ts --role api` on the database at `url` (which it migrates) and waits until it is ready. */
export function startApi(url: string): Promise<{ child: ChildProcess; base: string }> {
  return startService(url, 'api');
}

/**
 * Starts `src/main.ts --role <role>` (api or all: it must answer HTTP) on the database at `url`
 * and waits until it is ready; `env` adds variables (e.g. PGOPTIONS for the service's connections).
 */
export async function startService(url: string, role: 'api' | 'all', env: Record<string, string> = {}): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', role], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, SECRET_KEY: randomBytes(32).toString('hex'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const giveUpAt = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > giveUpAt) throw new Error(`the ${role} process did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
