// Builds dist/ from src/ (src/schema.ts generated first by `npm run generate`):
// - dist/esm/index.js and dist/cjs/index.js: one bundle each (esbuild), openapi-fetch inlined, so
//   the package has no runtime dependency and installs offline into any project, ESM or CommonJS;
// - their declarations, emitted once and copied beside each bundle. A package.json in each
//   folder gives the folder its module kind, so the same .d.ts files are ESM types under esm/ and
//   CommonJS types under cjs/. openapi-fetch's own declarations (the type of `client.raw`) are
//   copied into vendor/ with them, since the package no longer depends on openapi-fetch.
/* global URL, console */
import { build } from 'esbuild';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const types = join(dist, 'types');
const require = createRequire(import.meta.url);

const started = Date.now();
await rm(dist, { recursive: true, force: true });

const bundle = (format, outfile) =>
  build({
    entryPoints: [join(root, 'src/index.ts')],
    outfile: join(dist, outfile),
    bundle: true,
    format,
    platform: 'node',
    target: 'node20',
    // openapi-fetch's license travels with its code.
    legalComments: 'inline',
    logLevel: 'warning',
  });

/**
 * The declarations of src/, file by file without a type check (`npm run typecheck` checks the
 * client): TypeScript's transpileDeclaration, as the exported API is annotated (isolatedDeclarations).
 * Type-checking the generated schema again here would take most of the build.
 */
async function emitDeclarations() {
  const sources = (await readdir(join(root, 'src'))).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
  await mkdir(types, { recursive: true });
  for (const name of sources) {
    const text = await readFile(join(root, 'src', name), 'utf8');
    const { outputText, diagnostics } = ts.transpileDeclaration(text, {
      fileName: name,
      compilerOptions: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, isolatedDeclarations: true, strict: true },
      reportDiagnostics: true,
    });
    if (diagnostics?.length) {
      const message = diagnostics.map((d) => `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`).join('\n');
      throw new Error(`Declarations need explicit types:\n${message}`);
    }
    await writeFile(join(types, name.replace(/\.ts$/, '.d.ts')), outputText);
  }
}

await Promise.all([bundle('esm', 'esm/index.js'), bundle('cjs', 'cjs/index.js'), emitDeclarations()]);

/** openapi-fetch's declarations and those they import, as vendor/*.d.ts. */
async function vendorDeclarations() {
  const fetchTypes = await readFile(require.resolve('openapi-fetch/dist/index.d.ts'), 'utf8');
  const helpersDir = dirname(require.resolve('openapi-typescript-helpers/package.json', { paths: [dirname(require.resolve('openapi-fetch/package.json'))] }));
  const helperTypes = await readFile(join(helpersDir, 'dist/index.d.ts'), 'utf8');
  if (/from\s+['"](?!\.)/.test(helperTypes)) throw new Error('openapi-typescript-helpers now imports another package: vendor it too.');
  return {
    'openapi-fetch.d.ts': fetchTypes.replaceAll(/(['"])openapi-typescript-helpers\1/g, "'./openapi-typescript-helpers.js'"),
    'openapi-typescript-helpers.d.ts': helperTypes,
  };
}

const vendored = await vendorDeclarations();
const declarations = (await readdir(types)).filter((name) => name.endsWith('.d.ts'));
for (const [folder, type] of [
  ['esm', 'module'],
  ['cjs', 'commonjs'],
]) {
  const target = join(dist, folder);
  await mkdir(join(target, 'vendor'), { recursive: true });
  for (const name of declarations) {
    const text = await readFile(join(types, name), 'utf8');
    await writeFile(join(target, name), text.replaceAll(/(['"])openapi-fetch\1/g, "'./vendor/openapi-fetch.js'"));
  }
  for (const [name, text] of Object.entries(vendored)) await writeFile(join(target, 'vendor', name), text);
  await writeFile(join(target, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
await cp(require.resolve('openapi-fetch/LICENSE'), join(dist, 'LICENSE.openapi-fetch')).catch(() => undefined);
await rm(types, { recursive: true, force: true });
console.log(`built ${dist} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
