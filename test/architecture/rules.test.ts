// Each import rule of test/architecture/imports.test.ts shown to fail: run on a small tree under
// fixtures/ holding one deliberately broken import, it reports exactly that import; on the clean
// tree, nothing. (The fixtures are neither type-checked nor linted: tsconfig.json, eslint.config.js.)
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cycleWalk,
  FIXTURES,
  importCycles,
  layerViolations,
  missingDocPaths,
  missingModuleFiles,
  moduleBoundaryViolations,
  readTree,
  srcPathsIn,
  valueImports,
} from './rules.js';

const fixture = (name: string) => join(FIXTURES, name);

describe('import rules on fixture trees', () => {
  it('find nothing in a tree that keeps them', () => {
    const tree = readTree(fixture('clean'));
    expect(tree.files.length).toBe(14);
    expect(tree.imports.get('src/modules/orders/operations.ts')).toEqual(['src/modules/sellers/index.ts', 'src/outbox/emit.ts']);
    expect(importCycles(tree)).toEqual([]);
    expect(layerViolations(tree)).toEqual([]);
    expect(moduleBoundaryViolations(tree, { everyModule: true })).toEqual([]);
    expect(missingModuleFiles(tree.root)).toEqual([]);
    expect(missingDocPaths(tree.root)).toEqual([]);
  });

  it('find a cycle closed by type-only imports (import type, export type … from, typeof import())', () => {
    const tree = readTree(fixture('cycle-through-types'));
    const cycles = importCycles(tree);
    expect(cycles).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
    expect(cycleWalk(tree, cycles[0]!)).toBe('src/a.ts → src/b.ts → src/c.ts → src/a.ts');
    // d.ts names a.ts only in a comment and a string: no edge back.
    expect(tree.imports.get('src/d.ts')).toEqual([]);
    // At run time there is no cycle: only a.ts → d.ts loads code.
    expect(['src/a.ts', 'src/b.ts', 'src/c.ts'].flatMap((file) => valueImports(tree.root, file))).toEqual(['src/d.ts']);
  });

  it("find a module importing another's file past its index.ts, once that module has one", () => {
    const tree = readTree(fixture('module-past-index'));
    expect(moduleBoundaryViolations(tree)).toEqual(['src/modules/orders/operations.ts -> src/modules/sellers/payouts.ts']);
    // reviews has no index.ts yet: the rule is not on for it, unless asked for every module.
    expect(moduleBoundaryViolations(tree, { everyModule: true })).toEqual([
      'src/modules/orders/operations.ts -> src/modules/reviews/operations.ts',
      'src/modules/orders/operations.ts -> src/modules/sellers/payouts.ts',
    ]);
    expect(layerViolations(tree)).toEqual([]);
  });

  it("find a module.ts imported outside app/", () => {
    const tree = readTree(fixture('manifest-outside-app'));
    expect(moduleBoundaryViolations(tree)).toEqual(['src/modules/orders/module.ts -> src/modules/sellers/module.ts']);
  });

  it('find db/ importing http/', () => {
    const tree = readTree(fixture('db-imports-http'));
    expect(layerViolations(tree)).toEqual(['src/db/db.ts -> src/http/app.ts']);
    expect(importCycles(tree)).toEqual([]);
  });

  it('find a module importing a flow, and a flow importing a module past its index.ts', () => {
    const tree = readTree(fixture('module-imports-flow'));
    expect(layerViolations(tree)).toEqual(['src/modules/orders/operations.ts -> src/flows/place-order.ts']);
    expect(moduleBoundaryViolations(tree)).toEqual(['src/flows/place-order.ts -> src/modules/orders/operations.ts']);
  });

  it('find contracts/ importing a module', () => {
    const tree = readTree(fixture('contracts-import-module'));
    expect(layerViolations(tree)).toEqual(['src/contracts/erasure.ts -> src/modules/orders/index.ts']);
    expect(moduleBoundaryViolations(tree)).toEqual([]);
  });

  it('find a module importing an adapter (a type, a value): modules reach adapters through the hooks', () => {
    const tree = readTree(fixture('module-imports-adapter'));
    expect(layerViolations(tree)).toEqual([
      'src/modules/media/files.ts -> src/adapters/storage/local.ts',
      'src/modules/payments/calls.ts -> src/adapters/processors/simulated.ts',
    ]);
    expect(moduleBoundaryViolations(tree)).toEqual([]);
  });

  it('find app/ imported by another file than main.ts, and a file in no layer', () => {
    const tree = readTree(fixture('http-imports-app'));
    expect(layerViolations(tree)).toEqual(['src/http/app.ts -> src/app/wiring.ts', 'src/utils/strings.ts -> (no layer)']);
  });

  it("find contracts/ running db/'s code (its types are fine)", () => {
    const tree = readTree(fixture('contracts-run-db'));
    expect(layerViolations(tree)).toEqual(['src/contracts/jobs.ts -> src/db/transactions.ts']);
  });

  it('find a docs page naming a src/ path that does not exist', () => {
    expect(missingDocPaths(fixture('docs-missing-path'))).toEqual(['docs/guides/orders.md: src/modules/orders/machine.ts']);
  });

  it('read src/ paths in prose: trailing punctuation off, placeholders and other trees skipped', () => {
    const text = 'In `src/a.ts`, src/b/. Also (src/c.ts); `src/<name>/x.ts`, src/*/q.ts, src/{a,b}, web/src/d.ts, src/e.ts:12';
    expect(srcPathsIn(text)).toEqual(['src/a.ts', 'src/b/', 'src/c.ts', 'src/e.ts']);
  });

  it('find a module folder without its manifest', () => {
    expect(missingModuleFiles(fixture('module-without-manifest'))).toEqual(['src/modules/orders/module.ts']);
  });
});
