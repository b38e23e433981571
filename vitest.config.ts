import { defineConfig } from 'vitest/config';

// Each test file builds its own app on its own database (a fresh PGlite, or a fresh
// database on the PostgreSQL server when TEST_DATABASE=postgres), so files run in parallel.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser tests drive Chromium against a built dashboard: `npm run test:browser` only.
    exclude: ['test/browser/**', 'node_modules/**'],
    // Probes Redis (and PostgreSQL under TEST_DATABASE=postgres) once: see the file.
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
