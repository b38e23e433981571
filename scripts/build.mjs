// `npm run build` (and so `npm start`'s prestart): builds only what changed since the last build.
//
// - The server: `tsc -b tsconfig.build.json`. Build mode compares the sources with the build info
//   file it keeps in dist/ (dist/tsconfig.build.tsbuildinfo) and compiles only when one changed,
//   then only what the change touches. Deleting dist/ deletes that file too: the next build is full.
// - The dashboard: `vite build` runs only when its inputs' content hash differs from the one stored
//   in dist/dashboard.sha256 by the last successful build. The inputs are every file under
//   dashboard/src (the generated API types too), dashboard/index.html, dashboard/vite.config.ts and
//   package-lock.json (another vite or React). A content hash, not mtimes: a checkout that rewrites
//   files with the same content is not a change, and a clock set back cannot hide one.
//
// `node scripts/build.mjs --force` rebuilds both. Plain JavaScript, so it runs before anything is
// compiled; it spawns the compilers with this same Node.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const DASHBOARD_OUTPUT = join(DIST, 'dashboard', 'index.html');
const DASHBOARD_STAMP = join(DIST, 'dashboard.sha256');
const DASHBOARD_INPUTS = ['dashboard/src', 'dashboard/index.html', 'dashboard/vite.config.ts', 'package-lock.json'];

const force = process.argv.includes('--force');
const require = createRequire(join(ROOT, 'package.json'));
const binOf = (pkg, bin) => join(dirname(require.resolve(`${pkg}/package.json`)), bin);

function run(label, args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed\n`);
    process.exit(result.status ?? 1);
  }
}

/** The file at a path, or every file under it, sorted, as paths relative to the root. */
function fileList(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

function dashboardHash() {
  const hash = createHash('sha256');
  for (const file of DASHBOARD_INPUTS.flatMap(fileList)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * One build at a time in this tree (two `npm start`s, or test files building at once, would write
 * the same files): a lock directory holding the builder's pid, taken over when that process is gone.
 */
function takeLock() {
  const lock = join(DIST, '.build-lock');
  mkdirSync(DIST, { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const release = () => rmSync(lock, { recursive: true, force: true });
      process.on('exit', release);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      // Being written or removed right now: look again.
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(lock, { recursive: true, force: true });
    else if (waited === 0) process.stdout.write('build: waiting for another build of this tree to finish\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const started = Date.now();
takeLock();
if (force) rmSync(join(DIST, 'tsconfig.build.tsbuildinfo'), { force: true });
run('tsc', [binOf('typescript', 'bin/tsc'), '-b', 'tsconfig.build.json', ...(force ? ['--force'] : [])]);

const hash = dashboardHash();
const stored = existsSync(DASHBOARD_STAMP) ? readFileSync(DASHBOARD_STAMP, 'utf8').trim() : null;
if (force || stored !== hash || !existsSync(DASHBOARD_OUTPUT)) {
  // Removed first: a build that fails half-way leaves no stamp, so the next one builds again.
  rmSync(DASHBOARD_STAMP, { force: true });
  run('vite build', [binOf('vite', 'bin/vite.js'), 'build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'warn']);
  mkdirSync(DIST, { recursive: true });
  writeFileSync(DASHBOARD_STAMP, `${hash}\n`);
  process.stdout.write(`build: server and dashboard up to date (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
} else {
  process.stdout.write(`build: dashboard unchanged; server up to date (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
