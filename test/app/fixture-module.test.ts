// Adding a resource touches its own folder and one line of src/app/modules.ts: the fixture module
// in test/architecture/fixture-module/ (routes, an id prefix, an error code with its status, an
// event type with the object it carries, an OpenAPI tag, an erasure place) is assembled with every
// module's ([...MODULES, widgetsModule] standing for that line), and its parts reach the document,
// the answers, the event catalog, the ids and the erasure order; its folder imports only the
// contracts and the kernel, and nothing in src/ names it. The assembly's checks stop a start that
// declares an id kind or prefix, a code, an event type, a tag or an erasure participant twice.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { MODULES } from '../../src/app/modules.js';
import { buildWiring } from '../../src/app/wiring.js';
import { eventGroup, type EventType } from '../../src/contracts/events.js';
import type { ModuleManifest } from '../../src/contracts/wiring.js';
import { newId, type IdKind } from '../../src/ids.js';
import { startTestApp, testConfig, type TestContext } from '../helpers/harness.js';
import { widgetsModule } from '../architecture/fixture-module/module.js';
import { walk, toPosix } from '../architecture/graph.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDER = join(import.meta.dirname, '../architecture/fixture-module');

describe('a module added in its own folder', () => {
  let ctx: TestContext;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let doc: any;
  // The wiring of the service with one more module; the storage stays the test config's.
  beforeAll(async () => {
    ctx = await startTestApp({ wiring: (base) => ({ ...buildWiring(testConfig(), [...MODULES, widgetsModule]), storage: base.storage }) });
    doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
  });
  afterAll(() => ctx.close());

  it('puts its operations in the document under its tag, in the place its rank gives, with its error code in their enums', () => {
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

  it('mints the ids of its resource with the prefix it declared', async () => {
    const created = await ctx.request('/v1/widgets', { method: 'POST' });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^wgt_[0-9a-z]{26}$/);
    expect(ctx.services.wiring.idPrefixes.widget).toBe('wgt');
    expect(newId('widget')).toMatch(/^wgt_/);
    // A checked kind: `newId('widget')` compiles because its declarations.ts merged the kind.
    expectTypeOf<'widget'>().toExtend<IdKind>();
    expectTypeOf<'gadget'>().not.toExtend<IdKind>();
  });

  it("lists its event type in the catalog, in the place its group's rank gives, with the object it carries", async () => {
    const types = (await ctx.request('/v1/event_types?limit=100')).body.data.map((entry: { type: string }) => entry.type);
    const at = types.indexOf('widget.jammed');
    expect(types.slice(at - 1, at + 2)).toEqual(['order.booking_starting', 'widget.jammed', 'checkout.created']);
    const one = await ctx.request('/v1/event_types/widget.jammed');
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ object: 'event_type', type: 'widget.jammed', description: 'A widget jammed: it answers 423 widget_jammed.' });
    expect(one.body.schema.properties.object).toEqual({ const: 'widget', type: 'string' });
    // A checked type: emitting 'widget.jammed' compiles because its declarations.ts merged the type.
    expectTypeOf<'widget.jammed'>().toExtend<EventType>();
    expectTypeOf<'widget.unjammed'>().not.toExtend<EventType>();
  });

  it("puts its event type in the document's webhooks, its envelope carrying its object", () => {
    const webhooks = Object.keys(doc.webhooks);
    expect(webhooks[webhooks.indexOf('widget.jammed') - 1]).toBe('order.booking_starting');
    expect(doc.webhooks['widget.jammed'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WidgetJammedEvent');
    expect(doc.components.schemas.WidgetJammedEvent.properties.data.properties.object.$ref).toBe('#/components/schemas/Widget');
    expect(doc.components.schemas.WebhookEvent.discriminator.mapping['widget.jammed']).toBe('#/components/schemas/WidgetJammedEvent');
    expect(doc.paths['/v1/events'].get.parameters.find((p: { name: string }) => p.name === 'type').description).toContain('order.booking_starting, widget.jammed, checkout.created');
  });

  it('lets webhook endpoints subscribe to its event type and the events list filter by it', async () => {
    const endpoint = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url: 'http://127.0.0.1:4242/hooks', enabled_events: ['widget.jammed'] } });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.enabled_events).toEqual(['widget.jammed']);
    const refused = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url: 'http://127.0.0.1:4242/hooks', enabled_events: ['widget.unjammed'] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request', param: 'enabled_events[0]' });
    const events = await ctx.request('/v1/events?type=widget.jammed');
    expect(events.status).toBe(200);
    expect(events.body.data).toEqual([]);
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

  it('is named by no file of src/: no central table lists its id prefix, code, event type, tag or participant', () => {
    const naming = walk(join(ROOT, 'src'), (file) => file.endsWith('.ts')).filter((file) => /widget/i.test(readFileSync(file, 'utf8')));
    expect(naming.map((file) => toPosix(relative(ROOT, file)))).toEqual([]);
    expect(readdirSync(FOLDER).sort()).toEqual(['declarations.ts', 'module.ts', 'routes.ts', 'schemas.ts']);
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

  it('stops the start on an id kind or prefix declared twice, by the kernel or by another module, and installs nothing of it', () => {
    expect(build(widgetsModule, { name: 'gadgets', idPrefixes: { gadget: 'wgt' } })).toThrow("id prefix 'wgt' is declared twice (for widget by widgets, again for gadget by gadgets)");
    expect(build({ name: 'again', idPrefixes: { order: 'odr' } })).toThrow("id kind 'order' is declared twice (by orders, again by again)");
    expect(build({ name: 'again', idPrefixes: { trace: 'req' } })).toThrow("id prefix 'req' is declared twice (for request by the kernel (src/ids.ts), again for trace by again)");
    expect(build({ name: 'odd', idPrefixes: { odd: 'Odd_1' } })).toThrow("id prefix 'Odd_1' (odd, odd) is not lower-case letters");
    expect(() => newId('gadget' as IdKind)).toThrow("id kind 'gadget' has no prefix in this process");
  });

  it('stops the start on an event type declared twice, two event groups of one rank, or one object name for two schemas', () => {
    const gadget = Type.Object({ object: Type.Literal('gadget'), id: Type.String() });
    const gadgets = (objectName: string, rank: number, type: string): ModuleManifest => ({ name: 'gadgets', eventTypes: [eventGroup({ objectName, object: gadget, rank }, { [type]: ['A gadget was made.'] })] });
    expect(build(gadgets('Gadget', 999, 'order.created'))).toThrow("event type 'order.created' is declared twice (by orders, again by gadgets)");
    expect(build(gadgets('Gadget', 60, 'gadget.made'))).toThrow("event groups 'Order' (orders) and 'Gadget' (gadgets) have the same rank 60");
    expect(build(gadgets('Order', 999, 'gadget.made'))).toThrow("event object 'Order' is two schemas (by orders, again by gadgets)");
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
