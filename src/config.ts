// Configuration is parsed once, at start, from the environment handed in (never read at import),
// and passed down. A bad value stops the process with a message naming the variable.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | null;
      region: string;
      accessKeyId: string | null;
      secretAccessKey: string | null;
      forcePathStyle: boolean;
    };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | null;
  /**
   * DATABASE_SESSION_URL: where the work that needs a session of its own goes (the claim owners'
   * advisory locks, LISTEN, migrations); DATABASE_URL when unset; null without DATABASE_URL.
   */
  databaseSessionUrl: string | null;
  /**
   * DATABASE_POOL_MODE: `transaction` when DATABASE_URL is a pooler in transaction mode (PgBouncer
   * pool_mode=transaction): its statements run unnamed, never as named prepared statements.
   */
  databasePoolMode: 'session' | 'transaction';
  dataDir: string;
  /** 32 bytes: encrypts stored secrets and signs upload and media URLs. */
  secretKey: Buffer;
  operatorToken: string | null;
  signup: 'open' | 'closed';
  webhookAllowPrivateUrls: boolean;
  /** Days a webhook delivery is kept before the worker prunes it. */
  webhookDeliveryRetentionDays: number;
  smtpUrl: string | null;
  storage: StorageConfig;
  redisUrl: string | null;
  stripeApiUrl: string | null;
  /**
   * Which proxies may name the client's address in X-Forwarded-For (login throttling counts by
   * it): false (none, the default: the connection's address), a hop count, or addresses and CIDR
   * ranges.
   */
  trustProxy: false | number | string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How many of the newest matches search ranks by relevance (docs/search.md). */
  searchRelevanceCandidates: number;
  /** The dashboard's built files (index.html, assets/), served at /dashboard. */
  dashboardDir: string;
  /** DB_STATEMENT_LOG: a file every PostgreSQL statement is appended to (bench/orders.ts's capture); null: none. */
  dbStatementLog: string | null;
  /** log2 of scrypt's N for new password hashes (17, OWASP's figure, unless PASSWORD_HASH_COST says otherwise). */
  passwordHashCost: number;
  /** Documented bounds per tenant (docs/configuration.md): past one, a create answers 409 limit_exceeded. */
  limits: TenantLimits;
}

export interface TenantLimits {
  /** MAX_WEBHOOK_ENDPOINTS: webhook endpoints per marketplace and mode. */
  webhookEndpoints: number;
  /** MAX_PENDING_WEBHOOK_DELIVERIES: pending deliveries per webhook endpoint (replays refused past it, new events' deliveries written failed). */
  webhookPendingDeliveries: number;
  /** WEBHOOK_REPLAYS_PER_SECOND: replay requests (single and replay_failed together) per marketplace and mode. */
  webhookReplaysPerSecond: number;
  /** MAX_MEDIA_PER_LISTING: media per listing, pending uploads included. */
  mediaPerListing: number;
  /** MAX_EVIDENCE_PER_DISPUTE: evidence items per dispute. */
  evidencePerDispute: number;
  /** MAX_API_KEYS: API keys per marketplace and mode that still work (revoked and expired ones do not count). */
  apiKeys: number;
  /** MAX_PENDING_INVITATIONS: members a workspace may have waiting for their invitation to be accepted. */
  pendingInvitations: number;
  /** MAX_PENDING_REPORTS: reports of a marketplace and mode waiting to be built. */
  pendingReports: number;
  /** MAX_WORKSPACES_PER_USER: workspaces one account owns. */
  workspacesPerUser: number;
  /** MAX_MARKETPLACES_PER_WORKSPACE: marketplaces of one workspace. */
  marketplacesPerWorkspace: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** The dashboard build's output (vite), beside the server's: <package>/dist/dashboard, from src/ or dist/ alike. */
const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../dist/dashboard', import.meta.url));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = text(env, name);
  if (value === null) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}; got "${value}"`);
  }
  return value as T;
}

function flag(env: Env, name: string): boolean {
  const value = text(env, name);
  if (value === null) return false;
  if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  throw new ConfigError(name, `must be 1 or 0; got "${value}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const value = text(env, name);
  if (value === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}; got ${parsed.protocol}`);
  }
  return value;
}

function port(env: Env): number {
  const value = text(env, 'PORT');
  if (value === null) return 8080;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('PORT', `must be a whole number from 0 to 65535; got "${value}"`);
  }
  return Number(value);
}

// An address to listen on: an IP address or a host name. Checked here so a typo (a URL, a stray
// space) stops start naming HOST rather than failing later inside listen().
function webhookDeliveryRetentionDays(env: Env): number {
  const value = text(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS');
  if (value === null) return 30;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new ConfigError('WEBHOOK_DELIVERY_RETENTION_DAYS', 'must be a whole number of days from 1 to 3650');
  return days;
}

function host(env: Env): string {
  const value = text(env, 'HOST');
  if (value === null) return '127.0.0.1';
  const hostname = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (isIP(value) !== 0 || hostname.test(value)) return value;
  throw new ConfigError('HOST', `must be an IP address or a host name; got "${value}"`);
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(env: Env): false | number | string[] {
  const value = text(env, 'TRUST_PROXY');
  if (value === null || ['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value)) {
    if (Number(value) > 20) throw new ConfigError('TRUST_PROXY', `a hop count must be 1 to 20; got "${value}"`);
    return Number(value);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const version = isIP(address);
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32));
    if (PROXY_RANGE_NAMES.includes(entry) || (version !== 0 && prefixOk && extra === undefined)) continue;
    throw new ConfigError(
      'TRUST_PROXY',
      `must be a hop count, or addresses and CIDR ranges separated by commas (or loopback, linklocal, uniquelocal); "${entry}" is none of these`,
    );
  }
  return entries;
}

function decodeSecretKey(value: string, source = 'SECRET_KEY'): Buffer {
  const hex = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : null;
  if (hex) return hex;
  const b64 = Buffer.from(value, 'base64');
  if (b64.length === 32) return b64;
  throw new ConfigError('SECRET_KEY', `${source === 'SECRET_KEY' ? 'must be' : `in ${source} must be`} 32 bytes written as 64 hex characters or base64`);
}

/** Embedded mode keeps a generated key in DATA_DIR so restarts can read what they encrypted. */
function secretKey(env: Env, databaseUrl: string | null, dataDir: string): Buffer {
  const value = text(env, 'SECRET_KEY');
  if (value !== null) return decodeSecretKey(value);
  if (databaseUrl !== null) {
    throw new ConfigError('SECRET_KEY', 'is required when DATABASE_URL is set (64 hex characters)');
  }
  const file = join(dataDir, 'secret_key');
  try {
    if (existsSync(file)) return decodeSecretKey(readFileSync(file, 'utf8').trim(), file);
    mkdirSync(dataDir, { recursive: true });
    const generated = randomBytes(32).toString('hex');
    writeFileSync(file, generated + '\n', { mode: 0o600 });
    return Buffer.from(generated, 'hex');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // A file where the folder should be, no permission, a read-only disk: name the setting.
    const reason = error instanceof Error && 'code' in error ? `${String(error.code)}: ${error.message}` : String(error);
    throw new ConfigError('DATA_DIR', `must be a folder the service can create and write (${reason})`);
  }
}

function storage(env: Env): StorageConfig {
  const kind = oneOf(env, 'STORAGE', ['local', 's3'] as const, 'local');
  if (kind === 'local') return { kind };
  const bucket = text(env, 'S3_BUCKET');
  if (bucket === null) throw new ConfigError('S3_BUCKET', 'is required when STORAGE=s3');
  return {
    kind,
    bucket,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region: text(env, 'S3_REGION') ?? 'us-east-1',
    accessKeyId: text(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: text(env, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE'),
  };
}

function searchRelevanceCandidates(env: Env): number {
  const value = text(env, 'SEARCH_RELEVANCE_CANDIDATES');
  if (value === null) return 500;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100_000) {
    throw new ConfigError('SEARCH_RELEVANCE_CANDIDATES', `must be an integer from 1 to 100000; got "${value}"`);
  }
  return Number(value);
}

function bound(env: Env, name: string, fallback: number): number {
  const value = text(env, name);
  if (value === null) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) {
    throw new ConfigError(name, `must be an integer from 1 to 10000; got "${value}"`);
  }
  return Number(value);
}

function tenantLimits(env: Env): TenantLimits {
  return {
    // Stripe's figure for webhook endpoints per account and mode.
    webhookEndpoints: bound(env, 'MAX_WEBHOOK_ENDPOINTS', 16),
    // A dead endpoint's backlog for about a day at a few events a minute, or a burst of 10,000 events.
    webhookPendingDeliveries: bound(env, 'MAX_PENDING_WEBHOOK_DELIVERIES', 10_000),
    webhookReplaysPerSecond: bound(env, 'WEBHOOK_REPLAYS_PER_SECOND', 5),
    mediaPerListing: bound(env, 'MAX_MEDIA_PER_LISTING', 20),
    evidencePerDispute: bound(env, 'MAX_EVIDENCE_PER_DISPUTE', 50),
    apiKeys: bound(env, 'MAX_API_KEYS', 20),
    pendingInvitations: bound(env, 'MAX_PENDING_INVITATIONS', 50),
    pendingReports: bound(env, 'MAX_PENDING_REPORTS', 10),
    workspacesPerUser: bound(env, 'MAX_WORKSPACES_PER_USER', 20),
    marketplacesPerWorkspace: bound(env, 'MAX_MARKETPLACES_PER_WORKSPACE', 50),
  };
}

// Lower than 17 only to make test suites quicker (docs/decisions/accounts.md); above 20 a hash takes a gigabyte.
function passwordHashCost(env: Env): number {
  const value = text(env, 'PASSWORD_HASH_COST');
  if (value === null) return 17;
  const cost = Number(value);
  if (!/^\d+$/.test(value) || cost < 10 || cost > 20) throw new ConfigError('PASSWORD_HASH_COST', `must be a whole number from 10 to 20 (log2 of scrypt's N); got "${value}"`);
  return cost;
}

/**
 * DATABASE_SESSION_URL and DATABASE_POOL_MODE (docs/deployment.md, "PgBouncer"). What only a
 * connection can tell (is it a pooler, in which mode) is probed at start (src/db/connection-probe.ts).
 */
function databaseSession(env: Env, databaseUrl: string | null): { databaseSessionUrl: string | null; databasePoolMode: 'session' | 'transaction' } {
  const sessionUrl = url(env, 'DATABASE_SESSION_URL', ['postgres:', 'postgresql:']);
  const poolMode = oneOf(env, 'DATABASE_POOL_MODE', ['session', 'transaction'] as const, 'session');
  if (databaseUrl === null) {
    if (sessionUrl !== null) throw new ConfigError('DATABASE_SESSION_URL', 'needs DATABASE_URL: the embedded database has no sessions to separate');
    if (text(env, 'DATABASE_POOL_MODE') !== null) throw new ConfigError('DATABASE_POOL_MODE', 'needs DATABASE_URL: the embedded database has no pooler');
    return { databaseSessionUrl: null, databasePoolMode: 'session' };
  }
  if (poolMode === 'transaction' && (sessionUrl === null || sessionUrl === databaseUrl)) {
    throw new ConfigError(
      'DATABASE_SESSION_URL',
      `is required with DATABASE_POOL_MODE=transaction, and must differ from DATABASE_URL: the claim owners' advisory locks, LISTEN and migrations need sessions of their own, on PostgreSQL itself (not the pooler)`,
    );
  }
  return { databaseSessionUrl: sessionUrl ?? databaseUrl, databasePoolMode: poolMode };
}

/** The configuration of this process, from its environment: the one place that reads process.env. */
export function configFromEnvironment(): Config {
  return parseConfig(process.env);
}

export function parseConfig(env: Env): Config {
  const hostName = host(env);
  const portNumber = port(env);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const dataDir = resolve(text(env, 'DATA_DIR') ?? './data');
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${hostName.includes(':') ? `[${hostName}]` : hostName}:${portNumber}`).replace(/\/+$/, '');
  const operatorToken = text(env, 'OPERATOR_TOKEN');
  if (operatorToken !== null && operatorToken.length < 16) {
    throw new ConfigError('OPERATOR_TOKEN', 'must be at least 16 characters');
  }
  return {
    port: portNumber,
    host: hostName,
    publicUrl,
    databaseUrl,
    ...databaseSession(env, databaseUrl),
    dataDir,
    secretKey: secretKey(env, databaseUrl, dataDir),
    operatorToken,
    signup: oneOf(env, 'SIGNUP', ['open', 'closed'] as const, 'open'),
    webhookAllowPrivateUrls: flag(env, 'WEBHOOK_ALLOW_PRIVATE_URLS'),
    webhookDeliveryRetentionDays: webhookDeliveryRetentionDays(env),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    storage: storage(env),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    stripeApiUrl: url(env, 'STRIPE_API_URL', ['http:', 'https:']),
    trustProxy: trustProxy(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    searchRelevanceCandidates: searchRelevanceCandidates(env),
    dashboardDir: resolve(text(env, 'DASHBOARD_DIR') ?? DEFAULT_DASHBOARD_DIR),
    limits: tenantLimits(env),
    passwordHashCost: passwordHashCost(env),
    dbStatementLog: text(env, 'DB_STATEMENT_LOG'),
  };
}
