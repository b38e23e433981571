// The import rules of docs/architecture.md ("Import rules") on this repository's src/ and docs/:
// no import cycle (type-only imports included), no import up the layers, modules reached through
// their index.ts, every module with its index.ts and module.ts, every src/ path the docs name real.
// What today's tree still breaks is listed in ./allowlists.ts, lists that may only shrink; each rule
// is shown to fail on a broken fixture tree in ./rules.test.ts.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED_CYCLES, ALLOWED_LAYER_VIOLATIONS, ALLOWED_MISSING_DOC_PATHS, ALLOWED_MISSING_MODULE_FILES } from './allowlists.js';
import { cycleWalk, importCycles, layerViolations, missingDocPaths, missingModuleFiles, moduleBoundaryViolations, readTree } from './rules.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** What breaks a rule and is not allowlisted, and allowlisted entries that no longer happen (the list shrinks). */
function againstAllowlist(found: string[], allowed: string[]): { notAllowed: string[]; fixedStillListed: string[] } {
  return {
    notAllowed: found.filter((entry) => !allowed.includes(entry)),
    fixedStillListed: allowed.filter((entry) => !found.includes(entry)),
  };
}

const clean = { notAllowed: [], fixedStillListed: [] };

describe('import rules', () => {
  const tree = readTree(ROOT);

  it('reads the whole import graph (the rules below are not vacuous)', () => {
    expect(tree.files.length).toBeGreaterThan(100);
    const edges = [...tree.imports.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(edges).toBeGreaterThan(tree.files.length);
  });

  it('has no import cycle among the files of src/, type-only imports included', () => {
    const cycles = importCycles(tree);
    const key = (files: string[]) => files.join(', ');
    const allowedKeys = ALLOWED_CYCLES.map((files) => key([...files].sort()));
    const { notAllowed, fixedStillListed } = againstAllowlist(cycles.map(key), allowedKeys);
    // An unlisted cycle prints as the path that closes it; a listed one that changed shows under both.
    const walks = cycles.filter((files) => notAllowed.includes(key(files))).map((files) => cycleWalk(tree, files));
    expect({ notAllowed: walks, fixedStillListed }).toEqual(clean);
  });

  it('imports nothing up the layers (contracts a leaf; db, outbox, domain, workers, http, adapters below modules; app only from main.ts)', () => {
    expect(againstAllowlist(layerViolations(tree), ALLOWED_LAYER_VIOLATIONS)).toEqual(clean);
  });

  it("reaches another module only through its index.ts (for each module that has one), and a module.ts only from app/", () => {
    expect(moduleBoundaryViolations(tree)).toEqual([]);
  });

  it('gives every module folder its public surface (index.ts) and its manifest (module.ts)', () => {
    expect(againstAllowlist(missingModuleFiles(ROOT), ALLOWED_MISSING_MODULE_FILES)).toEqual(clean);
  });

  it('names in docs/ and README.md only src/ paths that exist', () => {
    expect(againstAllowlist(missingDocPaths(ROOT), ALLOWED_MISSING_DOC_PATHS)).toEqual(clean);
  });
});
