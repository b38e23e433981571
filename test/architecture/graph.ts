// The import graph of a tree's src/ (this repository, or a fixture under test/architecture/fixtures/):
// its files, what each imports (type-only and import() included), its cycles. Paths are relative to the root.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** Every .ts file under src/, and the files of src/ each one imports (type-only and import() included). */
export interface SourceTree {
  root: string;
  files: string[];
  imports: Map<string, string[]>;
}

export function walk(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path, keep);
      return keep(path) ? [path] : [];
    });
}

export const toPosix = (path: string) => path.split(sep).join('/');

/** The file a relative specifier names, as NodeNext resolves our sources: './x.js' is x.ts, a folder its index.ts. */
export function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null; // a package
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, `${target}/index.ts`];
  const found = candidates.find((path) => path.endsWith('.ts') && existsSync(join(root, path)) && statSync(join(root, path)).isFile());
  return found ?? null;
}

export function readTree(root: string): SourceTree {
  const files = walk(join(root, 'src'), (path) => path.endsWith('.ts')).map((path) => toPosix(relative(root, path)));
  const imports = new Map<string, string[]>();
  for (const file of files) {
    // preProcessFile reads import/export declarations (type-only ones too), require() and import(),
    // including `typeof import('./x.js')` in types, and skips comments and strings.
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => resolveSpecifier(root, file, fileName))
      .filter((target): target is string => target !== null && target.startsWith('src/'));
    imports.set(file, [...new Set(targets)].sort());
  }
  return { root, files, imports };
}

// --- Import cycles ---------------------------------------------------------------------------

/** Strongly connected components of the import graph that hold a cycle, each as its sorted files (Tarjan). */
export function importCycles(tree: SourceTree): string[][] {
  const index = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;

  const visit = (file: string) => {
    index.set(file, next);
    lowlink.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of tree.imports.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowlink.set(file, Math.min(lowlink.get(file)!, lowlink.get(target)!));
      } else if (onStack.has(target)) {
        lowlink.set(file, Math.min(lowlink.get(file)!, index.get(target)!));
      }
    }
    if (lowlink.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfImport = component.length === 1 && (tree.imports.get(file) ?? []).includes(file);
      if (component.length > 1 || selfImport) components.push(component.sort());
    }
  };
  for (const file of tree.files) if (!index.has(file)) visit(file);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Shortest import path from one file to any of `goals`, staying inside `within`. */
function shortestPath(tree: SourceTree, from: string, goals: Set<string>, within: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [from];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of tree.imports.get(file) ?? []) {
      if (!within.has(target)) continue;
      if (goals.has(target)) {
        const path = [target];
        for (let at = file; at !== from; at = previous.get(at)!) path.unshift(at);
        return path;
      }
      if (!seen.has(target)) {
        seen.add(target);
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return [];
}

/** A cycle as a readable walk a → b → … → a through every file of its component. */
export function cycleWalk(tree: SourceTree, component: string[]): string {
  const within = new Set(component);
  const start = component[0]!;
  const walkFiles = [start];
  const unvisited = new Set(component.slice(1));
  let at = start;
  while (unvisited.size > 0) {
    const step = shortestPath(tree, at, unvisited, within);
    for (const file of step) unvisited.delete(file);
    walkFiles.push(...step);
    at = walkFiles[walkFiles.length - 1]!;
  }
  walkFiles.push(...shortestPath(tree, at, new Set([start]), within));
  return walkFiles.join(' → ');
}

/**
 * The files of src/ a file imports for their values: every import but `import type` and `export type … from`
 * declarations and `typeof import()` in types (under verbatimModuleSyntax, `import { type A }` still loads
 * the file, so it counts).
 */
export function valueImports(root: string, file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((specifier) => resolveSpecifier(root, file, specifier)).filter((target): target is string => target !== null);
}
