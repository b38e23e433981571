// The process entry point: `node dist/main.js [--role api|worker|all]`.
// api serves HTTP, worker runs timers, jobs and periodic jobs, all (the default) does both in one
// process. The configuration is read from the environment here, once. SIGTERM or SIGINT stops
// taking connections, lets requests under way finish, lets the worker finish its pass, closes the
// database and exits 0.
import { ConfigError, configFromEnvironment, type Config } from './config.js';
import { systemClock } from './clock.js';
import { anyWorkspaceExists, createDemoIfEmpty, startupBanner, type StartupNotice } from './app/demo.js';
import type { App, Services } from './contracts/wiring.js';
import { closeServices, createApp, createServices } from './app/runtime.js';
import { startWorker, type Worker, type WorkerLog } from './workers/worker.js';

type Role = 'api' | 'worker' | 'all';
const ROLES: readonly Role[] = ['api', 'worker', 'all'];
const USAGE = 'Usage: node dist/main.js [--role api|worker|all]';
/** A shutdown that takes longer than this (a request that never ends) gives up and exits 1. */
const SHUTDOWN_TIMEOUT_MS = 30_000;

class UsageError extends Error {}

function parseRole(args: string[]): Role {
  let role: string = 'all';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--role') role = args[++i] ?? '';
    else if (arg.startsWith('--role=')) role = arg.slice('--role='.length);
    else throw new UsageError(`Unknown argument '${arg}'.\n${USAGE}`);
  }
  if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`Unknown role '${role}': use api, worker or all.\n${USAGE}`);
  return role as Role;
}

function readConfig(role: Role): Config {
  const config = configFromEnvironment();
  // PGlite keeps its files for one process only: split roles need a PostgreSQL server they share.
  if (config.databaseUrl === null && role !== 'all') {
    throw new ConfigError(
      'DATABASE_URL',
      `--role ${role} needs a PostgreSQL server; the embedded database serves a single process, so run --role all without DATABASE_URL`,
    );
  }
  return config;
}

/** JSON lines in pino's shape, for the worker-only role, which has no HTTP app and so no pino logger. */
function jsonLog(level: Config['logLevel']): WorkerLog & { info(details: object, message: string): void } {
  const write = (severity: number, details: object, msg: string) => {
    const { err, ...rest } = details as { err?: unknown };
    const error = err instanceof Error ? { type: err.name, message: err.message, stack: err.stack } : err;
    process.stdout.write(JSON.stringify({ level: severity, time: Date.now(), pid: process.pid, ...rest, ...(err ? { err: error } : {}), msg }) + '\n');
  };
  const quiet = level === 'silent' || level === 'fatal';
  return {
    error: (details, msg) => (quiet ? undefined : write(50, details, msg)),
    info: (details, msg) => (quiet || level === 'error' || level === 'warn' ? undefined : write(30, details, msg)),
  };
}

async function firstStartNotice(services: Services): Promise<StartupNotice> {
  const { config, db, clock } = services;
  if (config.databaseUrl !== null) return (await anyWorkspaceExists(db)) ? { kind: 'running' } : { kind: 'sign_up' };
  const demo = await createDemoIfEmpty(db, clock, config.passwordHashCost);
  return demo ? { kind: 'demo_created', demo } : { kind: 'running' };
}

async function start(role: Role, config: Config): Promise<void> {
  const log = jsonLog(config.logLevel);
  let app: App | null = null;
  let worker: Worker | null = null;
  const services = await createServices(config, {
    clock: systemClock,
    onBackgroundError: (err) => (app?.log ?? log).error({ err }, 'background error'),
  });

  if (role !== 'worker') {
    app = await createApp(services);
    await app.listen({ port: config.port, host: config.host });
    // The demo is made only once the port is ours: a start that fails before (port taken) must not
    // create the one-time login and keys and then exit without printing them.
    const notice = await firstStartNotice(services);
    process.stdout.write(startupBanner(config, notice) + '\n');
  }
  if (role !== 'api') {
    worker = startWorker(services, services.wiring, { log: app ? app.log.child({ component: 'worker' }) : log });
    if (!app) log.info({ role }, 'worker started');
  }

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting.\n`);
      process.exit(1);
    }
    stopping = true;
    setTimeout(() => {
      process.stderr.write(`Shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s: exiting.\n`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      // app.close() stops accepting connections and waits for the requests under way.
      await Promise.all([app?.close(), worker?.stop()]);
      await closeServices(services);
      process.exit(0);
    } catch (err) {
      (app?.log ?? log).error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}

async function main(): Promise<void> {
  let role: Role;
  let config: Config;
  try {
    role = parseRole(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  try {
    config = readConfig(role);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(1);
  }
  try {
    await start(role, config);
  } catch (error) {
    // A setting the database's probe found wrong (src/db/connection-probe.ts) names its variable.
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`Start failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

await main();
