// The import rules of docs/architecture.md ("Import rules") on this repository's src/ and docs/:
// no import cycle (type-only imports included), no import up the layers, modules reached through
// their index.ts, every module with its index.ts and module.ts, every src/ path the docs name real.
// Nothing is allowlisted; each rule is shown to fail on a broken fixture tree in ./rules.test.ts.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycleWalk, importCycles, layerViolations, missingDocPaths, missingModuleFiles, moduleBoundaryViolations, readTree } from './rules.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('import rules', () => {
  const tree = readTree(ROOT);

  it('reads the whole import graph (the rules below are not vacuous)', () => {
    expect(tree.files.length).toBeGreaterThan(100);
    const edges = [...tree.imports.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(edges).toBeGreaterThan(tree.files.length);
  });

  it('has no import cycle among the files of src/, type-only imports included', () => {
    // A cycle prints as the path that closes it.
    expect(importCycles(tree).map((files) => cycleWalk(tree, files))).toEqual([]);
  });

  it('imports nothing up the layers (contracts a leaf; db, outbox, domain, workers, http, adapters below modules; no module imports adapters; app only from main.ts)', () => {
    expect(layerViolations(tree)).toEqual([]);
  });

  it('reaches another module only through its index.ts, and a module.ts only from app/', () => {
    expect(moduleBoundaryViolations(tree)).toEqual([]);
  });

  it('gives every module folder its public surface (index.ts) and its manifest (module.ts)', () => {
    expect(missingModuleFiles(ROOT)).toEqual([]);
  });

  it('names in docs/ and README.md only src/ paths that exist', () => {
    expect(missingDocPaths(ROOT)).toEqual([]);
  });
});
