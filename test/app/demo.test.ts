import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { anyWorkspaceExists, createDemoIfEmpty, startupBanner, type DemoWorkspace } from '../../src/app/demo.js';
import { ApiKeyCache } from '../../src/http/api-key-cache.js';
import { verifyPassword } from '../../src/modules/accounts/passwords.js';
import { migrate } from '../../src/db/migrate.js';
import { freshDatabase, TEST_SECRET_KEY, testConfig, type TestDatabase } from '../helpers/harness.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase();
  await migrate(database.db);
});
afterAll(() => database.drop());

describe('first start', () => {
  let demo: DemoWorkspace | null;

  it('creates the demo workspace on an empty database, once', async () => {
    expect(await anyWorkspaceExists(database.db)).toBe(false);
    demo = await createDemoIfEmpty(database.db, systemClock);
    expect(demo).not.toBeNull();
    expect(await createDemoIfEmpty(database.db, systemClock)).toBeNull();
    const [count] = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workspaces');
    expect(count?.n).toBe(1);
  });

  it('gives a login that works, test keys of marketplace "Demo" in USD, and the simulated processor in test mode', async () => {
    const [user] = await database.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [demo!.email]);
    expect(await verifyPassword(demo!.password, user!.password_hash)).toBe(true);
    const keys = new ApiKeyCache(database.db, systemClock);
    const secret = await keys.lookup(demo!.testKeys.secret_key);
    expect(secret).toMatchObject({ keyType: 'secret', scope: { mode: 'test' }, marketplace: { name: 'Demo', currency: 'USD' } });
    expect(await keys.lookup(demo!.testKeys.publishable_key)).toMatchObject({ keyType: 'publishable' });
    const connections = await database.db.query('SELECT mode, provider FROM processor_connections WHERE marketplace_id = $1', [
      demo!.marketplaceId,
    ]);
    expect(connections).toEqual([{ mode: 'test', provider: 'simulated' }]);
  });

  it('is ready to sell: payments on in test mode (the simulated processor), off in live mode', async () => {
    const modes = await database.db.query<{ mode: string; payments_enabled: boolean }>(
      "SELECT mode, (settings->>'payments_enabled')::boolean AS payments_enabled FROM marketplace_modes WHERE marketplace_id = $1 ORDER BY mode",
      [demo!.marketplaceId],
    );
    expect(modes).toEqual([
      { mode: 'live', payments_enabled: false },
      { mode: 'test', payments_enabled: true },
    ]);
  });
});

describe('startupBanner', () => {
  const embedded = testConfig({ PUBLIC_URL: 'https://market.example.com' });
  const server = testConfig({ DATABASE_URL: 'postgres://db.internal/market', SECRET_KEY: TEST_SECRET_KEY, PUBLIC_URL: 'https://market.example.com' });

  it('prints the URLs, the login and the test keys after creating the demo', () => {
    const text = startupBanner(embedded, {
      kind: 'demo_created',
      demo: { email: 'demo@example.com', password: 'pw12345678', marketplaceId: 'mkt_x', testKeys: { secret_key: 'sk_test_abc', publishable_key: 'pk_test_def' } },
    });
    expect(text).toMatch(/Dashboard\s+https:\/\/market\.example\.com\/dashboard/);
    expect(text).toContain('https://market.example.com/v1');
    expect(text).toContain('https://market.example.com/manage/v1');
    expect(text).toMatch(/Login\s+demo@example\.com/);
    expect(text).toMatch(/Password\s+pw12345678/);
    expect(text).toMatch(/Test secret key\s+sk_test_abc/);
    expect(text).toMatch(/Test publishable key\s+pk_test_def/);
    const boxLines = text.split('\n').filter((line) => line.startsWith('│'));
    expect(new Set(boxLines.map((line) => line.length)).size).toBe(1);
  });

  it('prints how to sign up on an empty server database, and says so when sign-up is closed', () => {
    const text = startupBanner(server, { kind: 'sign_up' });
    expect(text).toContain('curl -X POST https://market.example.com/manage/v1/signup');
    expect(text).toContain('https://market.example.com/dashboard/signup');
    expect(text).toContain('"workspace_name"');
    expect(text).not.toContain('SIGNUP=closed');
    const closed = startupBanner({ ...server, signup: 'closed' }, { kind: 'sign_up' });
    expect(closed).toContain('SIGNUP=closed');
  });

  it('prints only the URLs on later starts', () => {
    const text = startupBanner(server, { kind: 'running' });
    expect(text).toContain('https://market.example.com/v1');
    expect(text).not.toMatch(/sk_test|Password|signup/);
  });
});
