// A fresh database with one workspace and one marketplace, for the tests of the background machinery.
import { systemClock } from '../../src/clock.js';
import type { Services } from '../../src/contracts/wiring.js';
import { createWorkspaceWithOwner } from '../../src/modules/accounts/operations.js';
import { createMarketplace } from '../../src/modules/marketplaces/operations.js';
import { createServices } from '../../src/app/runtime.js';
import type { Scope } from '../../src/scope.js';
import type { EngineLog } from '../../src/workers/engine.js';
import type { BackgroundWork } from '../../src/workers/worker.js';
import { freshDatabase, testConfig, type TestDatabase } from '../helpers/harness.js';

export interface WorkerFixture {
  database: TestDatabase;
  services: Services;
  scope: Scope;
  workspaceId: string;
  close(): Promise<void>;
}

export async function workerFixture(env: Record<string, string> = {}): Promise<WorkerFixture> {
  const database = await freshDatabase();
  const services = await createServices(testConfig(env), { clock: systemClock, db: database.db });
  const { workspace } = await createWorkspaceWithOwner(services.db, systemClock, {
    email: 'engine@example.com',
    password: 'correct horse battery',
    workspaceName: 'Engine',
  });
  const { marketplace } = await createMarketplace(services.db, systemClock, { workspaceId: workspace.id, name: 'E', currency: 'USD' });
  return {
    database,
    services,
    scope: { marketplaceId: marketplace.id, mode: 'test' },
    workspaceId: workspace.id,
    async close() {
      await services.rateLimiter.close();
      await database.drop();
    },
  };
}

export const quiet: EngineLog = { error: () => undefined };

/** Background work of only the given parts (nothing else runs). */
export function work(parts: Partial<BackgroundWork>): BackgroundWork {
  return { timers: {}, jobKinds: [], periodic: [], components: [], ...parts };
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > giveUpAt) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A promise with its resolve function, to hold a handler until the test lets it go. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
