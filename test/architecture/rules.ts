// The import rules of docs/architecture.md ("Import rules") as pure functions over a tree on disk:
// each takes the root of a repository (this one, or a fixture under test/architecture/fixtures/)
// and returns what breaks a rule, as text a failing test can print. Paths are relative to the root.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type SourceTree, toPosix, valueImports, walk } from './graph.js';

export { cycleWalk, importCycles, readTree, type SourceTree, valueImports } from './graph.js';

// --- Layers ----------------------------------------------------------------------------------

export type Layer = 'kernel' | 'main' | 'contracts' | 'db' | 'outbox' | 'domain' | 'workers' | 'http' | 'adapters' | 'modules' | 'flows' | 'app';
const FOLDERS: readonly Layer[] = ['contracts', 'db', 'outbox', 'domain', 'workers', 'http', 'adapters', 'modules', 'flows', 'app'];

/** The layer of a file of src/: the files directly in src/ are the kernel (but main.ts), else its first folder. */
export function layerOf(file: string): Layer | null {
  const parts = file.split('/');
  if (parts.length === 2) return file === 'src/main.ts' ? 'main' : 'kernel';
  const folder = parts[1] as Layer;
  return FOLDERS.includes(folder) ? folder : null;
}

const INFRASTRUCTURE_MAY_NOT: readonly Layer[] = ['http', 'adapters', 'modules', 'flows', 'app', 'main'];

/**
 * What each layer may not import. The kernel and contracts sit at the bottom (they may use db/'s types, as
 * scope.ts uses Queryable); nothing imports main.ts; only main.ts imports app/ (tests do too, from outside src/).
 * flows/ (use cases that cross modules) sit above the modules: a flow imports modules' public surfaces,
 * no module imports a flow, and only app/ assembles them.
 */
export const MAY_NOT_IMPORT: Record<Layer, readonly Layer[]> = {
  kernel: ['contracts', 'outbox', 'domain', 'workers', 'http', 'adapters', 'modules', 'flows', 'app', 'main'],
  contracts: ['outbox', 'domain', 'workers', 'http', 'adapters', 'modules', 'flows', 'app', 'main'],
  db: INFRASTRUCTURE_MAY_NOT,
  outbox: INFRASTRUCTURE_MAY_NOT,
  domain: INFRASTRUCTURE_MAY_NOT,
  workers: INFRASTRUCTURE_MAY_NOT,
  http: ['adapters', 'modules', 'flows', 'app', 'main'],
  adapters: ['http', 'modules', 'flows', 'app', 'main'],
  // Modules reach the adapters through the hooks the root wires (src/contracts/deps.ts), their types through contracts/.
  modules: ['adapters', 'flows', 'app', 'main'],
  flows: ['app', 'main'],
  app: ['main'],
  main: [],
};

/** Imports that run up the layers, as 'from -> to'; a file in no known folder of src/ as 'file -> (no layer)'. */
export function layerViolations(tree: SourceTree): string[] {
  const violations: string[] = [];
  for (const file of tree.files) {
    const layer = layerOf(file);
    if (layer === null) {
      violations.push(`${file} -> (no layer)`);
      continue;
    }
    // contracts/ may take db/'s types, not its code: a leaf runs nothing of the layers it describes.
    const valueFromDb = layer === 'contracts' ? valueImports(tree.root, file).filter((target) => layerOf(target) === 'db') : [];
    for (const target of tree.imports.get(file) ?? []) {
      const targetLayer = layerOf(target);
      const forbidden = targetLayer !== null && MAY_NOT_IMPORT[layer].includes(targetLayer);
      if (forbidden || valueFromDb.includes(target)) violations.push(`${file} -> ${target}`);
    }
  }
  return violations;
}

// --- Modules ---------------------------------------------------------------------------------

/** The module a file belongs to ('orders' for src/modules/orders/routes/x.ts); null outside a module folder. */
export function moduleOf(file: string): string | null {
  const parts = file.split('/');
  return parts[0] === 'src' && parts[1] === 'modules' && parts.length > 3 ? parts[2]! : null;
}

/** The module folders of src/modules/. */
export function moduleNames(root: string): string[] {
  const dir = join(root, 'src', 'modules');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

/**
 * Imports that pass a module's public surface, as 'from -> to'. Outside module B, the files that may import
 * modules at all (other modules, app/, main.ts) import only src/modules/B/index.ts, and app/ also B's
 * manifest module.ts; nobody but app/ imports a module.ts. The surface rule holds for the modules that have
 * an index.ts (it turns on module by module as they get one), or for every module with `everyModule`.
 */
export function moduleBoundaryViolations(tree: SourceTree, options: { everyModule?: boolean } = {}): string[] {
  const withSurface = new Set(moduleNames(tree.root).filter((name) => options.everyModule || tree.files.includes(`src/modules/${name}/index.ts`)));
  const violations: string[] = [];
  for (const file of tree.files) {
    const layer = layerOf(file);
    const fromApp = layer === 'app';
    for (const target of tree.imports.get(file) ?? []) {
      const owner = moduleOf(target);
      if (owner === null) continue;
      const manifest = `src/modules/${owner}/module.ts`;
      if (target === manifest) {
        if (!fromApp) violations.push(`${file} -> ${target}`);
        continue;
      }
      const mayImportModules = layer !== null && !MAY_NOT_IMPORT[layer].includes('modules');
      if (!mayImportModules || moduleOf(file) === owner || !withSurface.has(owner)) continue;
      if (target !== `src/modules/${owner}/index.ts`) violations.push(`${file} -> ${target}`);
    }
  }
  return violations;
}

/** The public surface (index.ts) and manifest (module.ts) that module folders still lack. */
export function missingModuleFiles(root: string): string[] {
  return moduleNames(root).flatMap((name) =>
    ['index.ts', 'module.ts'].map((file) => `src/modules/${name}/${file}`).filter((path) => !existsSync(join(root, path))),
  );
}

// --- Docs ------------------------------------------------------------------------------------

/** README.md and every page under docs/. */
export function docPages(root: string): string[] {
  const pages = walk(join(root, 'docs'), (path) => path.endsWith('.md')).map((path) => toPosix(relative(root, path)));
  return existsSync(join(root, 'README.md')) ? ['README.md', ...pages] : pages;
}

/**
 * The src/ paths a page names, backticked or bare: not inside another path (dashboard/src/…), trailing
 * punctuation stripped; a pattern with a placeholder (src/modules/<name>/, src/modules/*, {a,b}) is skipped.
 */
export function srcPathsIn(text: string): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/(?<![\w./-])src\/[\w./-]*/g)) {
    const following = text[match.index + match[0].length] ?? '';
    if ('<*{'.includes(following) && following !== '') continue;
    paths.push(match[0].replace(/[.,:;-]+$/, ''));
  }
  return paths;
}

/** The src/ paths named in the docs that exist neither as a file nor as a folder, as 'page: path'. */
export function missingDocPaths(root: string): string[] {
  const missing = new Set<string>();
  for (const page of docPages(root)) {
    for (const path of srcPathsIn(readFileSync(join(root, page), 'utf8'))) {
      if (!existsSync(join(root, path))) missing.add(`${page}: ${path}`);
    }
  }
  return [...missing];
}

/** The directory of this file: fixtures sit beside it. */
export const FIXTURES = join(import.meta.dirname, 'fixtures');
