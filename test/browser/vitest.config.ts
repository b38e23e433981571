import { defineConfig } from 'vitest/config';

// The dashboard in a real browser (Debian's Chromium through playwright-core): `npm run
// test:browser` (PGlite) and `npm run test:browser:postgres`. One file at a time: each starts the
// app on a real port and a Chromium.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/browser/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
