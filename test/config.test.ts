// Configuration: parsed once from the environment handed in; a bad value stops
// start with a ConfigError naming the variable.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

const KEY = 'ab'.repeat(32);
const dataDir = () => mkdtempSync(join(tmpdir(), 'mkt-config-'));
const base = () => ({ DATA_DIR: dataDir(), SECRET_KEY: KEY });

function failure(env: Record<string, string>): ConfigError {
  try {
    parseConfig({ ...base(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('defaults', () => {
  it('are the documented defaults (docs/configuration.md)', () => {
    const config = parseConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:8080',
      databaseUrl: null,
      operatorToken: null,
      signup: 'open',
      webhookAllowPrivateUrls: false,
      smtpUrl: null,
      storage: { kind: 'local' },
      redisUrl: null,
      stripeApiUrl: null,
      trustProxy: false,
      logLevel: 'info',
    });
    expect(config.secretKey).toHaveLength(32);
  });

  it('reads every variable', () => {
    const config = parseConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://market.example/',
      DATABASE_URL: 'postgres://u@db:5432/m',
      SECRET_KEY: KEY,
      OPERATOR_TOKEN: 'x'.repeat(16),
      SIGNUP: 'closed',
      WEBHOOK_ALLOW_PRIVATE_URLS: '1',
      SMTP_URL: 'smtp://mail:25',
      STORAGE: 's3',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      REDIS_URL: 'redis://cache:6379',
      STRIPE_API_URL: 'http://stripe-mock:12111',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.7, loopback',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      publicUrl: 'https://market.example',
      databaseUrl: 'postgres://u@db:5432/m',
      operatorToken: 'x'.repeat(16),
      signup: 'closed',
      webhookAllowPrivateUrls: true,
      smtpUrl: 'smtp://mail:25',
      storage: { kind: 's3', bucket: 'media', endpoint: 'http://minio:9000', region: 'eu-west-1', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true },
      redisUrl: 'redis://cache:6379',
      stripeApiUrl: 'http://stripe-mock:12111',
      trustProxy: ['10.0.0.0/8', '192.168.1.7', 'loopback'],
      logLevel: 'warn',
    });
    expect(config.secretKey.toString('hex')).toBe(KEY);
  });

  it('DATABASE_SESSION_URL is DATABASE_URL unless set; DATABASE_POOL_MODE is session unless set', () => {
    expect(parseConfig({ ...base(), DATABASE_URL: 'postgres://u@db/m' })).toMatchObject({ databaseSessionUrl: 'postgres://u@db/m', databasePoolMode: 'session' });
    expect(parseConfig({ ...base(), DATABASE_URL: 'postgres://u@pooler:6432/m', DATABASE_SESSION_URL: 'postgres://u@db:5432/m', DATABASE_POOL_MODE: 'transaction' })).toMatchObject({
      databaseUrl: 'postgres://u@pooler:6432/m',
      databaseSessionUrl: 'postgres://u@db:5432/m',
      databasePoolMode: 'transaction',
    });
    expect(parseConfig(base())).toMatchObject({ databaseSessionUrl: null, databasePoolMode: 'session' });
  });

  it('TRUST_PROXY takes a hop count, or off', () => {
    expect(parseConfig({ ...base(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseConfig({ ...base(), TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(parseConfig({ ...base(), TRUST_PROXY: '::1/128' }).trustProxy).toEqual(['::1/128']);
  });

  it('PUBLIC_URL follows HOST and PORT when unset', () => {
    expect(parseConfig({ ...base(), HOST: 'localhost', PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
  });

  it('HOST takes an IPv6 address, bracketed in the default PUBLIC_URL', () => {
    const config = parseConfig({ ...base(), HOST: '::1' });
    expect(config.host).toBe('::1');
    expect(config.publicUrl).toBe('http://[::1]:8080');
  });

  it('SECRET_KEY may be base64 of 32 bytes', () => {
    const b64 = Buffer.from(KEY, 'hex').toString('base64');
    expect(parseConfig({ ...base(), SECRET_KEY: b64 }).secretKey.toString('hex')).toBe(KEY);
  });
});

describe('a bad value stops with a ConfigError naming the variable', () => {
  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['HOST', { HOST: 'http://example.com' }],
    ['HOST', { HOST: 'two words' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'not a url' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://files.example' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/x' }],
    ['DATABASE_URL', { DATABASE_URL: '::nope' }],
    ['SECRET_KEY', { SECRET_KEY: 'short' }],
    ['SECRET_KEY', { SECRET_KEY: 'z'.repeat(64) }],
    ['OPERATOR_TOKEN', { OPERATOR_TOKEN: 'short' }],
    ['SIGNUP', { SIGNUP: 'maybe' }],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', { WEBHOOK_ALLOW_PRIVATE_URLS: 'sure' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail' }],
    ['STORAGE', { STORAGE: 'ftp' }],
    ['S3_BUCKET', { STORAGE: 's3' }],
    ['S3_ENDPOINT', { STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio' }],
    ['S3_FORCE_PATH_STYLE', { STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'perhaps' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache' }],
    ['STRIPE_API_URL', { STRIPE_API_URL: 'stripe' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes please' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1,proxy.internal' }],
    ['TRUST_PROXY', { TRUST_PROXY: '99' }],
    ['DATABASE_SESSION_URL', { DATABASE_URL: 'postgres://u@pooler/m', DATABASE_SESSION_URL: 'http://db/m' }],
    ['DATABASE_SESSION_URL', { DATABASE_SESSION_URL: 'postgres://u@db/m' }],
    ['DATABASE_POOL_MODE', { DATABASE_URL: 'postgres://u@pooler/m', DATABASE_POOL_MODE: 'statement' }],
    ['DATABASE_POOL_MODE', { DATABASE_POOL_MODE: 'transaction' }],
  ])('%s (%j)', (variable, env) => {
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}:`)).toBe(true);
  });

  it('SECRET_KEY is required with DATABASE_URL', () => {
    try {
      parseConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db/m' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('SECRET_KEY');
    }
  });

  it('DATABASE_POOL_MODE=transaction needs a DATABASE_SESSION_URL of its own (docs/deployment.md, "PgBouncer")', () => {
    const settings: Array<Record<string, string>> = [
      { DATABASE_URL: 'postgres://u@pooler:6432/m', DATABASE_POOL_MODE: 'transaction' },
      { DATABASE_URL: 'postgres://u@pooler:6432/m', DATABASE_POOL_MODE: 'transaction', DATABASE_SESSION_URL: 'postgres://u@pooler:6432/m' },
    ];
    for (const env of settings) {
      const error = failure(env);
      expect(error.variable).toBe('DATABASE_SESSION_URL');
      expect(error.message).toMatch(/^DATABASE_SESSION_URL: is required with DATABASE_POOL_MODE=transaction, and must differ from DATABASE_URL: the claim owners' advisory locks, LISTEN and migrations need sessions of their own/);
    }
  });

  it('a corrupt generated key file names SECRET_KEY and the file', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'secret_key'), 'garbage\n');
    try {
      parseConfig({ DATA_DIR: dir });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).variable).toBe('SECRET_KEY');
      expect((error as ConfigError).message).toContain(join(dir, 'secret_key'));
    }
  });
});

describe('a DATA_DIR the service cannot use', () => {
  it('stops with a ConfigError naming DATA_DIR, not a file-system stack', () => {
    const file = join(dataDir(), 'a-file');
    writeFileSync(file, 'not a folder\n');
    for (const DATA_DIR of [file, join(file, 'below')]) {
      try {
        parseConfig({ DATA_DIR });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).variable).toBe('DATA_DIR');
      }
    }
  });
});

describe('the embedded-mode secret key', () => {
  it('is generated once into DATA_DIR, private to its owner, and reused', () => {
    const dir = join(dataDir(), 'nested', 'data');
    const first = parseConfig({ DATA_DIR: dir });
    const file = join(dir, 'secret_key');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secretKey.toString('hex'));
    const second = parseConfig({ DATA_DIR: dir });
    expect(second.secretKey.equals(first.secretKey)).toBe(true);
  });

  it('is not generated when SECRET_KEY is given', () => {
    const dir = dataDir();
    parseConfig({ DATA_DIR: dir, SECRET_KEY: KEY });
    expect(existsSync(join(dir, 'secret_key'))).toBe(false);
  });
});

describe('reading', () => {
  it('does not read process.env: only the environment handed in counts', () => {
    process.env.LOG_LEVEL = 'verbose';
    try {
      expect(parseConfig(base()).logLevel).toBe('info');
    } finally {
      delete process.env.LOG_LEVEL;
    }
  });

  it('treats blank values as unset', () => {
    expect(parseConfig({ ...base(), PORT: '  ', REDIS_URL: '' }).port).toBe(8080);
  });
});

describe('SEARCH_RELEVANCE_CANDIDATES', () => {
  it('defaults to 1000 and takes 1 to 100000', () => {
    expect(parseConfig(base()).searchRelevanceCandidates).toBe(500);
    expect(parseConfig({ ...base(), SEARCH_RELEVANCE_CANDIDATES: '5' }).searchRelevanceCandidates).toBe(5);
    for (const bad of ['0', '100001', '12a', '-3']) {
      expect(() => parseConfig({ ...base(), SEARCH_RELEVANCE_CANDIDATES: bad })).toThrow(/SEARCH_RELEVANCE_CANDIDATES/);
    }
  });
});

describe('MAX_PENDING_INVITATIONS', () => {
  it('defaults to 50 and takes 1 to 10000', () => {
    expect(parseConfig(base()).limits.pendingInvitations).toBe(50);
    expect(parseConfig({ ...base(), MAX_PENDING_INVITATIONS: '3' }).limits.pendingInvitations).toBe(3);
    for (const bad of ['0', '10001', '5x', '-1']) {
      expect(() => parseConfig({ ...base(), MAX_PENDING_INVITATIONS: bad })).toThrow(/MAX_PENDING_INVITATIONS/);
    }
  });
});
