// `npm run arch:report`: the figures of the import graph issue 23's closing note compares before and
// after (files, lines, largest file, cycles, upward imports, module surfaces bypassed), by the same
// rules test/architecture/imports.test.ts enforces. Prints; changes nothing.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importCycles, layerViolations, missingDocPaths, missingModuleFiles, moduleBoundaryViolations, moduleNames, moduleOf, readTree } from './rules.js';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '../..'));
const tree = readTree(root);

const lines = tree.files.map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }));
const largest = lines.reduce((a, b) => (b.lines > a.lines ? b : a), { file: '(none)', lines: 0 });
const total = lines.reduce((sum, entry) => sum + entry.lines, 0);

const cycles = importCycles(tree);
const filesInCycles = cycles.reduce((sum, files) => sum + files.length, 0);

// Every module's surface, as if each had its index.ts: the imports to reroute through one.
const bypassing = moduleBoundaryViolations(tree, { everyModule: true });
const betweenModules = bypassing.filter((entry) => moduleOf(entry.split(' -> ')[0]!) !== null);
const modulePairs = new Set(betweenModules.map((entry) => entry.split(' -> ').map((file) => moduleOf(file)).join(' -> ')));

const figures: [string, string | number][] = [
  ['files in src/', tree.files.length],
  ['lines in src/', total],
  ['largest file', `${largest.file} (${largest.lines} lines)`],
  ['imports between files of src/', [...tree.imports.values()].reduce((sum, targets) => sum + targets.length, 0)],
  ['import cycles (type-only included)', cycles.length],
  ['files in import cycles', filesInCycles],
  ['largest cycle (files)', Math.max(0, ...cycles.map((files) => files.length))],
  ['upward imports (layer rules)', layerViolations(tree).length],
  ['module folders in src/modules/', moduleNames(root).length],
  ["imports of another module's file other than its index.ts (module to module)", betweenModules.length],
  ['  module pairs they join', modulePairs.size],
  ['  plus those from outside any module folder (loose wiring files, app/, main.ts)', bypassing.length - betweenModules.length],
  ['  breaking the rule as enforced today (modules with an index.ts)', moduleBoundaryViolations(tree).length],
  ['index.ts / module.ts still missing in module folders', missingModuleFiles(root).length],
  ['src/ paths named in the docs that do not exist', missingDocPaths(root).length],
];

const width = Math.max(...figures.map(([label]) => label.length));
for (const [label, value] of figures) console.log(`${label.padEnd(width)}  ${value}`);
