// Runs once before any test file: finds out whether the servers some tests need answer, so that
// `npm test` on a machine without them skips those tests with one line saying so, and a CI run
// (CI set) fails at once instead. Tests read the result with `inject` (test/helpers/servers.ts).
//
// - Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379): the shared rate-limit tests.
// - PostgreSQL (TEST_POSTGRES_URL): only with TEST_DATABASE=postgres, which asks for it, so an
//   unreachable server fails the run with or without CI (there would be nothing left to test).
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const PROBE_TIMEOUT_MS = 2_000;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Redis URL the Redis tests use, or null when it did not answer (those tests are skipped). */
    redisUrl: string | null;
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: PROBE_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function postgresAnswers(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** host:port of a URL, for messages (never its password). */
function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (parsed.protocol.startsWith('redis') ? '6379' : '5432')}`;
}

export default async function setup(project: TestProject): Promise<void> {
  const ci = Boolean(process.env.CI);
  if (process.env.TEST_DATABASE === 'postgres') {
    const url = process.env.TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
    const problem = await postgresAnswers(url);
    if (problem !== null) {
      throw new Error(`TEST_DATABASE=postgres, but PostgreSQL at ${where(url)} does not answer (${problem}). Start it, or run npm test for PGlite.`);
    }
  }
  const redisUrl = process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
  const redisUp = await redisAnswers(redisUrl);
  if (!redisUp && ci) {
    throw new Error(`Redis at ${where(redisUrl)} does not answer, and CI is set: the Redis tests must run. Start Redis or set TEST_REDIS_URL.`);
  }
  if (!redisUp) process.stdout.write(`Redis at ${where(redisUrl)} not reachable: the Redis tests are skipped (CI=1 requires them).\n`);
  project.provide('redisUrl', redisUp ? redisUrl : null);
}
