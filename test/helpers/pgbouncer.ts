// PgBouncer (Debian's package; .ci/run installs it) before the test PostgreSQL server, for the
// tests of the service behind a pooler (docs/deployment.md, "PgBouncer"): started on a free port
// with its configuration in a temporary folder, and stopped. Every database name passes through to
// the server of TEST_POSTGRES_URL in the pool mode asked for; `aliases` add names of their own (a
// database under another name and pool mode). Authentication is trust, as the test server's.
// PgBouncer refuses to run as root: as root it is started with `-u nobody`.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './harness.js';
import { freePort } from './ports.js';

const BINARIES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

/** The pgbouncer binary, or null when it is not installed. */
export const pgbouncerBinary: string | null = BINARIES.find((path) => existsSync(path)) ?? null;

export type PoolMode = 'session' | 'transaction';

export interface PgBouncerOptions {
  poolMode: PoolMode;
  /** Extra database names: alias → the server's database and the alias's own pool mode. */
  aliases?: Record<string, { dbname: string; poolMode: PoolMode }>;
  /** Server connections per database and user (default 10). */
  poolSize?: number;
}

export interface PgBouncer {
  port: number;
  /** A URL of `database` through PgBouncer (the user and password of TEST_POSTGRES_URL). */
  url(database: string): string;
  /** A statement on PgBouncer's admin console (SHOW SERVERS, SHOW POOLS…), its rows. */
  admin(command: string): Promise<Array<Record<string, unknown>>>;
  output(): string;
  stop(): Promise<void>;
}

export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  if (pgbouncerBinary === null) throw new Error('pgbouncer is not installed (apt-get install pgbouncer; .ci/run does it)');
  const server = new URL(POSTGRES_ADMIN_URL);
  const user = decodeURIComponent(server.username || 'postgres');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mkt-pgbouncer-'));
  const target = `host=${server.hostname} port=${server.port || '5432'}`;
  const aliases = Object.entries(options.aliases ?? {}).map(([alias, { dbname, poolMode }]) => `${alias} = ${target} dbname=${dbname} pool_mode=${poolMode}`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      ...aliases,
      `* = ${target}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `admin_users = ${user}`,
      `pool_mode = ${options.poolMode}`,
      `default_pool_size = ${options.poolSize ?? 10}`,
      'max_client_conn = 500',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  // Readable by the user it runs as (nobody, when the tests run as root).
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(pgbouncerBinary, [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = (database: string) => {
    const through = new URL(POSTGRES_ADMIN_URL);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    through.pathname = `/${database}`;
    through.search = '';
    return through.toString();
  };
  const admin = async (command: string) => {
    const client = new pg.Client({ connectionString: url('pgbouncer') });
    client.on('error', () => undefined);
    try {
      await client.connect();
      // The admin console speaks the simple protocol only.
      return (await client.query(command)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const giveUpAt = Date.now() + 15_000;
  for (;;) {
    try {
      await admin('SHOW VERSION');
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > giveUpAt) {
        await stop();
        throw new Error(`pgbouncer did not start (${error instanceof Error ? error.message : String(error)}):\n${text}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { port, url, admin, output: () => text, stop };
}
