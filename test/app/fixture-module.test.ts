// Adding a resource touches its own folder and one line of src/app/modules.ts: the fixture module
// in test/architecture/fixture-module/ (a route, an error code with its status, an OpenAPI tag, an erasure place)
// is assembled with every module's ([...MODULES, widgetsModule] standing for that line), and its
// parts reach the document, the answers and the erasure order; its folder imports only the
// contracts and the kernel, and nothing in src/ names it. The assembly's checks stop a start
// that declares a code, a tag or an erasure participant twice.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULES } from '../../src/app/modules.js';
import { buildWiring } from '../../src/app/wiring.js';
import type { ModuleManifest } from '../../src/contracts/wiring.js';
import { startTestApp, testConfig, type TestContext } from '../helpers/harness.js';
import { widgetsModule } from '../architecture/fixture-module/module.js';
import { walk, toPosix } from '../architecture/graph.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDER = join(import.meta.dirname, '../architecture/fixture-module');

describe('a module added in its own folder', () => {
  let ctx: TestContext;
  // The wiring of the service with one more module; the storage stays the test config's.
  beforeAll(async () => {
    ctx = await startTestApp({ wiring: (base) => ({ ...buildWiring(testConfig(), [...MODULES, widgetsModule]), storage: base.storage }) });
  });
  afterAll(() => ctx.close());

  it('puts its operations in the document under its tag, in the place its rank gives, with its error code in their enums', async () => {
    const doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
    const names = (doc.tags as Array<{ name: string }>).map((tag) => tag.name);
    expect(names.slice(-3)).toEqual(['Trust and safety', 'Widgets', 'Management']);
    expect(doc.paths['/v1/widgets/{id}'].get.tags).toEqual(['Widgets']);
    const jam = doc.paths['/v1/widgets/{id}/jam'].post;
    expect(jam.tags).toEqual(['Widgets']);
    expect(jam.responses['4XX'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toContain('widget_jammed');
    expect(jam.responses['4XX'].description).toContain('423 `widget_jammed`');
  });

  it('answers its route, and its error code with the status it declared', async () => {
    const widget = await ctx.request('/v1/widgets/w1');
    expect(widget.status).toBe(200);
    expect(widget.body).toEqual({ object: 'widget', id: 'w1' });
    const jammed = await ctx.request('/v1/widgets/w1/jam', { method: 'POST' });
    expect(jammed.status).toBe(423);
    expect(jammed.body.error).toMatchObject({ code: 'widget_jammed', message: 'The widget is jammed.' });
    expect(ctx.services.wiring.errorStatuses.widget_jammed).toBe(423);
  });

  it('takes its place in the erasure order: after the participant it names, before the copies', () => {
    const order = ctx.services.wiring.erasure.map((participant) => participant.name);
    expect(order.indexOf('widgets')).toBeGreaterThan(order.indexOf('listings'));
    expect(order.slice(-2)).toEqual(['stored events', 'stored answers']);
  });

  it('imports only the contracts, the kernel (the files directly in src/), packages and its own folder', () => {
    const outside: string[] = [];
    for (const path of walk(FOLDER, (file) => file.endsWith('.ts'))) {
      const { importedFiles, ambientExternalModules } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
      for (const specifier of [...importedFiles.map((file) => file.fileName), ...(ambientExternalModules ?? [])]) {
        if (!specifier.startsWith('.')) continue;
        const target = toPosix(relative(ROOT, resolve(join(path, '..'), specifier)));
        const parts = target.split('/');
        const allowed =
          target.startsWith(toPosix(relative(ROOT, FOLDER)) + '/') || target.startsWith('src/contracts/') || (parts[0] === 'src' && parts.length === 2);
        if (!allowed) outside.push(`${toPosix(relative(ROOT, path))} -> ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('is named by no file of src/: no central table lists its code, tag or participant', () => {
    const naming = walk(join(ROOT, 'src'), (file) => file.endsWith('.ts')).filter((file) => /widget/i.test(readFileSync(file, 'utf8')));
    expect(naming.map((file) => toPosix(relative(ROOT, file)))).toEqual([]);
    expect(readdirSync(FOLDER).sort()).toEqual(['declarations.ts', 'module.ts', 'routes.ts']);
  });
});

describe('the assembly of the manifests', () => {
  const config = testConfig();
  const build = (...extra: ModuleManifest[]) => () => buildWiring(config, [...MODULES, ...extra]);

  it('stops the start on an error code declared twice, by the kernel or by another module', () => {
    expect(build({ name: 'again', errorCodes: { invalid_request: 400 } })).toThrow("error code 'invalid_request' is declared twice (by the kernel (src/errors.ts), again by again)");
    expect(build({ name: 'again', errorCodes: { dispute_window_closed: 409 } })).toThrow("error code 'dispute_window_closed' is declared twice (by orders, again by again)");
    expect(build({ name: 'odd', errorCodes: { odd_code: 200 } })).toThrow("error code 'odd_code' (odd) has status 200, not an error status");
  });

  it('stops the start on an OpenAPI tag declared twice, or two tags of one rank', () => {
    expect(build({ name: 'again', tags: [{ name: 'Orders', description: 'Again.', rank: 999 }] })).toThrow("OpenAPI tag 'Orders' is declared twice (by orders, again by again)");
    expect(build({ name: 'again', tags: [{ name: 'Gadgets', description: 'Gadgets.', rank: 80 }] })).toThrow("OpenAPI tags 'Orders' (orders) and 'Gadgets' (again) have the same rank 80");
  });

  it('stops the start on an erasure participant declared twice, after one nobody declares, or in a circle', () => {
    const participant = (name: string) => ({ name, eraseSeller: async () => undefined });
    expect(build({ name: 'again', erasure: { participant: participant('listings') } })).toThrow("erasure participant 'listings' is declared twice");
    expect(build({ name: 'lost', erasure: { participant: participant('lost'), after: ['nobody'] } })).toThrow("erasure participant 'lost' runs after 'nobody', which no module declares");
    expect(
      build({ name: 'a', erasure: { participant: participant('a'), after: ['b'] } }, { name: 'b', erasure: { participant: participant('b'), after: ['a'] } }),
    ).toThrow('erasure participants a, b each run after another of them (a circle)');
  });
});
