// Before the browser tests: build the dashboard (dist/dashboard, what the app serves at
// /dashboard) and check that Chromium is there.
import { existsSync } from 'node:fs';
import { build } from 'vite';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default async function setup(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  // The production build (vitest sets NODE_ENV=test, which would bundle React's development build).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: new URL('../../dashboard/vite.config.ts', import.meta.url).pathname, mode: 'production', logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
