// Test-only operations mounted next to the real route table, so the conventions of src/http can be
// exercised before (and independently of) the resource modules: a closed body with nested objects,
// arrays and bounded fields, a write that records a row scoped by the key, a reader of such rows,
// a handler that fails unexpectedly, and a handler that waits on a gate the test opens.
import { Type } from '@sinclair/typebox';
import type { RouteTable } from '../../src/http/app.js';
import { Body, Metadata, Money, PageQuery } from '../../src/http/schemas.js';
import { pageRequest, toList } from '../../src/db/paging.js';
import type { RouteModule } from '../../src/contracts/wiring.js';
import { errors } from '../../src/errors.js';
import { newId } from '../../src/ids.js';
import { routeTable } from '../../src/app/routes.js';
import { buildWiring } from '../../src/app/wiring.js';
import { testConfig } from '../helpers/harness.js';

export const WidgetBody = Body({
  name: Type.String({ minLength: 1, maxLength: 50 }),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  price: Type.Optional(Money),
  listings: Type.Optional(
    Type.Array(
      Type.Object(
        { title: Type.String({ minLength: 1, maxLength: 200 }), price: Type.Optional(Money) },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
  ),
  metadata: Type.Optional(Metadata),
});

/** A hook a test can install to hold a handler until it opens the gate. */
export interface Gate {
  entered: () => void;
  wait: Promise<void>;
}

export interface FixtureControl {
  gate: Gate | null;
  /** How many times the widget handler ran to completion of its write. */
  writes: number;
}

export function fixtureControl(): FixtureControl {
  return { gate: null, writes: 0 };
}

/** Rows are written to the events table: it exists from the first migration and is scoped by key. */
function secretFixtures(control: FixtureControl): RouteModule {
  return (app, services) => {
    app.post('/_test/widgets', { schema: { body: WidgetBody, hide: true } }, async (request, reply) => {
      const { scope } = request.api;
      const id = newId('event');
      const now = new Date(services.clock.nowMs());
      const body = request.body as { name: string };
      await services.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO events (marketplace_id, mode, id, type, object_id, data, created_at)
           VALUES ($1, $2, $3, 'widget.created', $3, $4, $5)`,
          [scope.marketplaceId, scope.mode, id, JSON.stringify({ object: request.body }), now],
        );
        if (control.gate) {
          control.gate.entered();
          await control.gate.wait;
        }
      });
      control.writes++;
      if (body.name === 'invalid') throw errors.invalidRequest('This name is refused after the write.', 'name');
      if (body.name === 'missing') throw errors.missing('widget', 'wdg_nope', 'name');
      if (body.name === 'conflict') throw errors.invalidState('widget', 'frozen', 'be created');
      reply.code(201);
      return { object: 'widget', id, name: body.name, created_at: now.toISOString() };
    });

    app.get('/_test/widgets/:id', { schema: { params: Type.Object({ id: Type.String() }), hide: true } }, async (request) => {
      const { scope } = request.api;
      const { id } = request.params as { id: string };
      const [row] = await services.db.query<{ id: string; created_at: Date }>(
        'SELECT id, created_at FROM events WHERE marketplace_id = $1 AND mode = $2 AND id = $3',
        [scope.marketplaceId, scope.mode, id],
      );
      if (!row) throw errors.missing('widget', id);
      return { object: 'widget', id: row.id, created_at: row.created_at.toISOString() };
    });

    app.get('/_test/widgets', { schema: { querystring: Type.Object(PageQuery, { additionalProperties: false }), hide: true } }, async (request) => {
      const { scope } = request.api;
      const page = pageRequest(request.query as { limit?: number; starting_after?: string }, 'event');
      const rows = await services.db.query<{ id: string }>(
        `SELECT id FROM events WHERE marketplace_id = $1 AND mode = $2 AND ($3::text IS NULL OR id < $3)
          ORDER BY id DESC LIMIT $4`,
        [scope.marketplaceId, scope.mode, page.startingAfter, page.limit + 1],
      );
      return toList(rows, page.limit);
    });

    // The other way to answer in Fastify: the idempotency layer must still answer after COMMIT.
    app.post('/_test/sends-itself', { schema: { body: WidgetBody, hide: true } }, async (request, reply) => {
      const { scope } = request.api;
      const id = newId('event');
      await services.db.query(
        `INSERT INTO events (marketplace_id, mode, id, type, object_id, data, created_at)
         VALUES ($1, $2, $3, 'widget.created', $3, $4, $5)`,
        [scope.marketplaceId, scope.mode, id, JSON.stringify({ object: request.body }), new Date(services.clock.nowMs())],
      );
      reply.code(201).send({ object: 'widget', id, name: (request.body as { name: string }).name });
    });

    app.post('/_test/explode', { schema: { hide: true } }, async () => {
      // What an unexpected database failure looks like: the message names tables and SQL.
      await services.db.query('SELECT * FROM no_such_table_secret_detail');
      return { ok: true };
    });
    app.get('/_test/explode', { schema: { hide: true } }, async () => {
      throw new Error('boom at /srv/app/src/secret.ts:42 password=hunter2');
    });
  };
}

const publishableFixtures: RouteModule = (app) => {
  app.get('/_test/public', { schema: { hide: true } }, async (request) => ({
    object: 'public_thing',
    key_type: request.api.keyType,
  }));
};

/** The real route table (every module's) plus some routes of a test's own. */
export function routesWith(extra: { publishable?: RouteModule[]; secret?: RouteModule[] }): RouteTable {
  const table = routeTable(buildWiring(testConfig()).routes);
  return { ...table, publishable: [...table.publishable, ...(extra.publishable ?? [])], secret: [...table.secret, ...(extra.secret ?? [])] };
}

/** The real route table plus the fixtures above. */
export function fixtureRoutes(control: FixtureControl = fixtureControl()): RouteTable {
  return routesWith({ publishable: [publishableFixtures], secret: [secretFixtures(control)] });
}

/** A promise with its resolve function, to hold a handler until the test lets it go. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
