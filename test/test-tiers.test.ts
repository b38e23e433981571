// The test tiers of vitest.config.ts (unit, http, durability): every test file is in exactly one,
// so `npm test` (all three) runs each once and no new file falls out of every tier; the files the
// config names exist; and a unit file builds no app, opens no database, starts no process.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { DURABILITY_FILES, UNIT_FILES } from '../vitest.config.js';

const ROOT = resolve(import.meta.dirname, '..');

/** Every *.test.ts under test/, outside the browser tests (their own config). */
function testFilesOnDisk(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return relative(ROOT, path) === join('test', 'browser') ? [] : testFilesOnDisk(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

/** The tier of each file, as vitest itself resolves the config's globs (a file in two tiers appears twice). */
async function tiersByVitest(): Promise<Array<{ tier: string; file: string }>> {
  const vitest = await createVitest('test', { watch: false, config: join(ROOT, 'vitest.config.ts'), reporters: [] });
  try {
    const specs = await vitest.globTestSpecifications();
    return specs.map((spec) => ({ tier: spec.project.name, file: relative(ROOT, spec.moduleId) }));
  } finally {
    await vitest.close();
  }
}

// What a unit test may not import: the harness that builds the app and opens the database, the
// fixtures built on it (every `helpers.js` beside the tests), the fake servers, the runtime and
// the database drivers, child processes.
const NOT_UNIT = /helpers\/harness|\/helpers\.js|fake-stripe|helpers\/servers|src\/runtime|db\/drivers|node:child_process/;

describe('the test tiers', () => {
  it('put every test file in exactly one tier', async () => {
    const placed = await tiersByVitest();
    const tiersOf = new Map<string, string[]>();
    for (const { tier, file } of placed) tiersOf.set(file, [...(tiersOf.get(file) ?? []), tier]);
    const problems = testFilesOnDisk().flatMap((file) => {
      const tiers = tiersOf.get(file) ?? [];
      return tiers.length === 1 ? [] : [`${file}: ${tiers.length === 0 ? 'in no tier' : `in ${tiers.join(', ')}`}`];
    });
    expect(problems).toEqual([]);
    expect(new Set(placed.map(({ tier }) => tier))).toEqual(new Set(['unit', 'http', 'durability']));
  });

  it('name only files that exist', () => {
    const onDisk = new Set(testFilesOnDisk());
    const named = [...UNIT_FILES, ...DURABILITY_FILES].filter((glob) => !glob.includes('*'));
    expect(named.filter((file) => !onDisk.has(file))).toEqual([]);
  });

  it('keep the unit tier free of databases, apps and processes', async () => {
    const unitFiles = (await tiersByVitest()).filter(({ tier }) => tier === 'unit').map(({ file }) => file);
    expect(unitFiles.length).toBeGreaterThan(0);
    const offenders = unitFiles.filter((file) => {
      const imports = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^import[^;]*?from '([^']+)'/gms)].map((m) => m[1]!);
      return imports.some((specifier) => NOT_UNIT.test(specifier));
    });
    expect(offenders, 'move these to the http or durability tier (vitest.config.ts)').toEqual([]);
  });
});
