import { defineConfig } from 'vitest/config';

// Each test file builds its own app on its own database (a fresh PGlite, or a fresh
// database on the PostgreSQL server when TEST_DATABASE=postgres), so files run in parallel.
//
// Three tiers (vitest projects), each runnable alone: `npm run test:unit`, `test:http`,
// `test:durability`; `npm test` runs all three. This file is the one place that says which file is
// in which tier; test/test-tiers.test.ts checks that every test file is in exactly one.

export const TEST_FILES = 'test/**/*.test.ts';
// The browser tests drive Chromium against a built dashboard: `npm run test:browser` only.
export const OUTSIDE_TIERS = ['test/browser/**', 'node_modules/**'];

/** Fast: no database, no HTTP server, no process; pure functions and files read from the repository. */
export const UNIT_FILES = [
  'test/*.test.ts',
  'test/domain/**/*.test.ts',
  'test/architecture/*.test.ts',
  'test/modules/orders/docs.test.ts',
  'test/modules/listings/attributes.property.test.ts',
];

/** Slow: processes spawned and killed, property runs over money and stock, requests racing across processes. */
export const DURABILITY_FILES = [
  'test/main/process.test.ts',
  'test/main/start-time.test.ts',
  'test/readme/tour.test.ts',
  'test/main/idempotency-crash.test.ts',
  'test/workers/lease-kill.test.ts',
  'test/modules/payments/crash.test.ts',
  'test/modules/webhooks/crash.test.ts',
  'test/modules/payouts/crash.test.ts',
  'test/modules/orders/concurrency.test.ts',
  'test/modules/checkouts/concurrency.test.ts',
  'test/modules/bookings/concurrency.test.ts',
  'test/modules/orders/orders.property.test.ts',
  'test/modules/payments/payments.property.test.ts',
  'test/modules/payments/checkout-money.property.test.ts',
];

// HTTP: the app and a real database (the bulk). Every file the two lists above do not name, so
// that a new test file always lands in a tier.

// The durations of the slowest files, at the end of a CI run (see the reporter).
const ciReporters = process.env.CI ? ['./test/helpers/file-durations-reporter.ts'] : [];

export default defineConfig({
  test: {
    // Probes Redis (and PostgreSQL under TEST_DATABASE=postgres) once per project: see the file.
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ...ciReporters],
    // `extends: true`: each project keeps the settings above (global setup, pool, timeouts). No
    // include at the top: a project's include would be added to it, not replace it.
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_FILES, exclude: OUTSIDE_TIERS } },
      { extends: true, test: { name: 'http', include: [TEST_FILES], exclude: [...OUTSIDE_TIERS, ...UNIT_FILES, ...DURABILITY_FILES] } },
      { extends: true, test: { name: 'durability', include: DURABILITY_FILES, exclude: OUTSIDE_TIERS } },
    ],
  },
});
