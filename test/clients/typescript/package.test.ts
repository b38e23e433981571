// The client as a project installs it: `npm run client:pack` makes the tarball, a fresh
// `npm init -y` project (CommonJS by default) installs it offline (the package has no runtime
// dependency), and a small ESM script and a small CommonJS script call the running service with it,
// the API client and the management client both; tsc checks the package's types from both kinds
// of module.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { listen } from './helpers.js';

const run = promisify(execFile);
const REPO = new URL('../../../', import.meta.url).pathname;
const CLIENT = join(REPO, 'clients/typescript');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// Building and installing take seconds on a quiet machine; these are generous bounds, not timings.
const SLOW = 600_000;

let ctx: TestContext;
let baseUrl: string;
let project: string;
let tarball: string;

/** npm without the network: anything not in the tarball (or the cache) fails the install. */
const npm = (args: string[], cwd: string) =>
  run('npm', args, { cwd, env: { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }, maxBuffer: 16 * 1024 * 1024 });

beforeAll(async () => {
  ctx = await startTestApp();
  baseUrl = await listen(ctx);
  const packed = await npm(['run', '-s', 'client:pack'], REPO);
  const name = packed.stdout.trim().split('\n').pop()!.trim();
  expect(name).toMatch(/^marketplace-backend-client-.*\.tgz$/);
  tarball = join(CLIENT, name);
  project = await mkdtemp(join(tmpdir(), 'mkt-client-project-'));
  await npm(['init', '-y'], project);
  await npm(['install', '--offline', '--no-audit', '--no-fund', tarball], project);
}, SLOW);
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
  await ctx?.close();
});

const SCRIPT_BODY = `
  const client = createClient({ apiKey: process.env.KEY, baseUrl: process.env.BASE });
  const seller = await client.post('/v1/sellers', { body: { external_id: 'pkg-' + process.env.KIND, name: 'Ada', email: 'ada@example.com' } });
  const listing = await client.post('/v1/listings', { body: { seller: seller.id, title: 'Walnut desk', price: { amount: 45000, currency: 'USD' } } });
  const expanded = await client.get('/v1/listings/{id}', { params: { path: { id: listing.id }, query: { expand: ['seller'] } } });
  let missing = null;
  try {
    await client.get('/v1/orders/{id}', { params: { path: { id: 'ord_missing' } } });
  } catch (error) {
    missing = error instanceof MarketplaceError ? error.code : String(error);
  }
  const manage = createManagementClient({ baseUrl: process.env.BASE });
  let login = null;
  try {
    await manage.post('/manage/v1/login', { body: { email: 'nobody@example.com', password: 'not the password' } });
  } catch (error) {
    login = error.code;
  }
  console.log(JSON.stringify({ seller: seller.id, sellerName: expanded.seller.name, missing, login }));
`;

async function runScript(file: string, text: string, kind: string) {
  await writeFile(join(project, file), text);
  const { stdout } = await run(process.execPath, [file], { cwd: project, env: { ...process.env, KEY: ctx.keys.test.secret_key, BASE: baseUrl, KIND: kind } });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { seller: string; sellerName: string; missing: string; login: string };
}

describe('the packed client in a fresh npm project', () => {
  it('installs with no runtime dependency, the project being CommonJS', async () => {
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(pkg.type ?? 'commonjs').toBe('commonjs');
    expect(pkg.dependencies['@marketplace-backend/client']).toMatch(/\.tgz$/);
    const installed = JSON.parse(await readFile(join(project, 'node_modules/@marketplace-backend/client/package.json'), 'utf8'));
    expect(installed.dependencies ?? {}).toEqual({});
    expect(installed.exports['.']).toMatchObject({ import: { types: expect.any(String) }, require: { types: expect.any(String) } });
  });

  it('works from an ES module', async () => {
    const out = await runScript('esm.mjs', `import { createClient, createManagementClient, MarketplaceError } from '@marketplace-backend/client';\n${SCRIPT_BODY}`, 'esm');
    expect(out).toEqual({ seller: expect.stringMatching(/^sel_/), sellerName: 'Ada', missing: 'resource_missing', login: 'invalid_credentials' });
  });

  it('works from CommonJS (require, no top-level await in what it loads)', async () => {
    const out = await runScript(
      'cjs.js',
      `const { createClient, createManagementClient, MarketplaceError } = require('@marketplace-backend/client');\n(async () => {${SCRIPT_BODY}})().catch((error) => { console.error(error); process.exit(1); });`,
      'cjs',
    );
    expect(out).toEqual({ seller: expect.stringMatching(/^sel_/), sellerName: 'Ada', missing: 'resource_missing', login: 'invalid_credentials' });
  });

  it("type-checks from both kinds of module with the package's own types", async () => {
    const typed = (importLine: string) => `${importLine}
export async function main(): Promise<string> {
  const client = createClient({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:1' });
  const order = await client.get('/v1/orders/{id}', { params: { path: { id: 'ord_1' }, query: { expand: ['seller'] } } });
  const seller: components['schemas']['Seller']['id'] = order.seller.id;
  const listing: string = order.listing;
  const manage = createManagementClient({ baseUrl: 'http://127.0.0.1:1' });
  const session = await manage.post('/manage/v1/login', { body: { email: 'a@example.com', password: 'p' } });
  // @ts-expect-error not expanded: an id
  void order.listing.id;
  return seller + listing + session.token;
}
`;
    await writeFile(join(project, 'typed.mts'), typed(`import { createClient, createManagementClient, type components } from '@marketplace-backend/client';`));
    await writeFile(join(project, 'typed.cts'), typed(`import { createClient, createManagementClient, type components } from '@marketplace-backend/client';`));
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], types: [], strict: true, noEmit: true }, files: ['typed.mts', 'typed.cts'] }),
    );
    const result = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe('');
  }, SLOW);
});
