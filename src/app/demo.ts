// First start. On an empty embedded database the service sets up a demo workspace
// (an owner login and a marketplace "Demo" in USD whose test mode has payments on, through the
// simulated processor: an order awaits payment and is paid on its hosted page or by a test helper),
// so `npm start` is enough to try the API. With DATABASE_URL set it creates nothing: a shared
// server's first account is made through signup. What to print at start is decided here too.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db, Queryable } from '../db/db.js';
import { randomBase62 } from '../ids.js';
import { createWorkspaceWithOwner } from '../modules/accounts/index.js';
import { createMarketplace, type KeyPair } from '../modules/marketplaces/index.js';

export const DEMO_EMAIL = 'demo@example.com';

export interface DemoWorkspace {
  email: string;
  password: string;
  marketplaceId: string;
  testKeys: KeyPair;
}

export async function anyWorkspaceExists(q: Queryable): Promise<boolean> {
  return (await q.query('SELECT 1 FROM workspaces LIMIT 1')).length > 0;
}

/** Creates the demo workspace when no workspace exists yet; null when one does. All or nothing. */
export async function createDemoIfEmpty(db: Db, clock: Clock, passwordHashCost?: number): Promise<DemoWorkspace | null> {
  return db.transaction(async (tx) => {
    // Serialises first starts that race (a restart loop, say), so only one demo is ever made.
    await tx.query('LOCK TABLE workspaces IN EXCLUSIVE MODE');
    if (await anyWorkspaceExists(tx)) return null;
    const password = randomBase62(20);
    const { workspace } = await createWorkspaceWithOwner(db, clock, { email: DEMO_EMAIL, password, workspaceName: 'Demo workspace', passwordHashCost });
    const { marketplace, api_keys } = await createMarketplace(db, clock, {
      workspaceId: workspace.id,
      name: 'Demo',
      currency: 'USD',
      testProcessor: 'simulated',
      testPaymentsEnabled: true,
    });
    return { email: DEMO_EMAIL, password, marketplaceId: marketplace.id, testKeys: api_keys.test };
  });
}

/** What an API process prints once it listens. */
export type StartupNotice =
  | { kind: 'demo_created'; demo: DemoWorkspace }
  | { kind: 'sign_up' }
  | { kind: 'running' };

export function startupBanner(config: Config, notice: StartupNotice): string {
  const lines = [
    'Marketplace backend is running',
    '',
    `Dashboard       ${config.publicUrl}/dashboard`,
    `API             ${config.publicUrl}/v1`,
    `Management API  ${config.publicUrl}/manage/v1   (log in: POST /manage/v1/login)`,
  ];
  // Commands go below the box: they are long, and copying them out of a box picks up its borders.
  const after: string[] = [];
  if (notice.kind === 'demo_created') {
    const { demo } = notice;
    lines.push(
      '',
      'A demo workspace was created: marketplace "Demo" in USD, simulated payments in test mode.',
      `Login                 ${demo.email}`,
      `Password              ${demo.password}`,
      `Test secret key       ${demo.testKeys.secret_key}`,
      `Test publishable key  ${demo.testKeys.publishable_key}`,
      '',
      'Save them now: the password and the secret key are not shown again.',
    );
    after.push('Try it:', `  curl ${config.publicUrl}/v1/marketplace -H "Authorization: Bearer ${demo.testKeys.secret_key}"`);
  } else if (notice.kind === 'sign_up') {
    lines.push('', `No account exists yet: sign up at ${config.publicUrl}/dashboard/signup or with the command below.`);
    if (config.signup === 'closed') lines.push('SIGNUP=closed refuses sign-ups: start once with SIGNUP=open to create the first account.');
    after.push(
      `curl -X POST ${config.publicUrl}/manage/v1/signup -H "Content-Type: application/json" \\`,
      `  -d '{"email": "you@example.com", "password": "at least 10 characters", "workspace_name": "My workspace"}'`,
    );
  }
  return [box(lines), ...after].join('\n');
}

function box(lines: string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return [`┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`].join('\n');
}
