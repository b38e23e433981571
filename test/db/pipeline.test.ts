// Tx.queryThenCommit and statements issued together, on the kind of database this run tests
// (PostgreSQL: a pipelined connection, the statement sent with its COMMIT; PGlite: one after the
// other). The refusal function comes from the migrations.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_EACH_CALL, type Db } from '../../src/db/db.js';
import { refusal } from '../../src/db/pg-errors.js';
import { migrate } from '../../src/db/migrate.js';
import { freshDatabase, type TestDatabase } from '../helpers/harness.js';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  await migrate(db);
  await db.exec('CREATE TABLE p (id integer PRIMARY KEY, units integer NOT NULL)');
});
afterAll(() => database.drop());
beforeEach(() => db.query('DELETE FROM p'));

const rows = () => db.query<{ id: number; units: number }>('SELECT id, units FROM p ORDER BY id');
const TAKE = `WITH r AS (UPDATE p SET units = units - $2 WHERE id = $1 AND units >= $2 RETURNING 1)
  SELECT CASE WHEN EXISTS (SELECT 1 FROM r) THEN true ELSE raise_refusal('units_unavailable') END AS taken`;

describe('queryThenCommit', () => {
  it('runs the last statement and commits what came before it', async () => {
    await db.query('INSERT INTO p VALUES (1, 5)');
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO p VALUES ($1, $2)', [2, 0]);
      const [row] = await tx.queryThenCommit<{ taken: boolean }>(TAKE, [1, 3]);
      return row!.taken;
    });
    expect(result).toBe(true);
    expect(await rows()).toEqual([
      { id: 1, units: 2 },
      { id: 2, units: 0 },
    ]);
  });

  it('a statement that raises rolls everything back, the refusal reads back, and the pool goes on', async () => {
    await db.query('INSERT INTO p VALUES (1, 1)');
    const error = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO p VALUES ($1, $2)', [2, 0]);
        await tx.queryThenCommit(TAKE, [1, 3]);
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refusal(error)).toBe('units_unavailable');
    expect(refusal(new Error('other'))).toBeNull();
    expect(await rows()).toEqual([{ id: 1, units: 1 }]);
    // Every connection of the pool still works, in and out of transactions.
    await Promise.all(Array.from({ length: 8 }, (_, i) => db.transaction((tx) => tx.query('INSERT INTO p VALUES ($1, 0)', [10 + i]))));
    expect(await rows()).toHaveLength(9);
  });

  it('inside a savepoint it is a plain statement: its refusal rolls back the savepoint only', async () => {
    await db.query('INSERT INTO p VALUES (1, 1)');
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO p VALUES ($1, $2)', [2, 0]);
      await expect(
        db.transaction(async (inner) => {
          await inner.query('INSERT INTO p VALUES ($1, $2)', [3, 0]);
          await inner.queryThenCommit(TAKE, [1, 3]);
        }),
      ).rejects.toMatchObject({ code: 'MK001' });
      await db.transaction((inner) => inner.queryThenCommit(TAKE, [1, 1]));
      await tx.query('INSERT INTO p VALUES ($1, $2)', [4, 0]);
    });
    expect(await rows()).toEqual([
      { id: 1, units: 0 },
      { id: 2, units: 0 },
      { id: 4, units: 0 },
    ]);
  });
});

describe('statements issued together in a transaction', () => {
  it('run in the order issued, and a failure fails the transaction', async () => {
    await db.transaction(async (tx) => {
      await Promise.all([tx.query('INSERT INTO p VALUES ($1, $2)', [1, 1]), tx.query('UPDATE p SET units = units + 1 WHERE id = $1', [1])]);
    });
    expect(await rows()).toEqual([{ id: 1, units: 2 }]);
    const pending = db.transaction(async (tx) => {
      const results = await Promise.allSettled([tx.query('INSERT INTO p VALUES ($1, $2)', [2, 0]), tx.query('INSERT INTO p VALUES ($1, $2)', [1, 0])]);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    });
    await expect(pending).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([{ id: 1, units: 2 }]);
  });
});

describe('prepared statements', () => {
  // Names of the connection's prepared statements whose text contains the marker.
  const preparedLike = (tx: { query: Db['query'] }, marker: string) =>
    tx.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%'`, [marker]);

  it('a statement with parameters is prepared once per connection; one marked PLAN_EACH_CALL never is', async () => {
    await db.transaction(async (tx) => {
      for (let i = 0; i < 7; i++) {
        await tx.query(`SELECT id FROM p WHERE id = $1 /* named marker */`, [i]);
        await tx.query(`${PLAN_EACH_CALL}SELECT id FROM p WHERE id = $1 /* unnamed marker */`, [i]);
      }
      // PGlite plans every statement with its values and keeps none by name.
      expect(await preparedLike(tx, 'named marker */')).toHaveLength(db.kind === 'postgres' ? 1 : 0);
      expect(await preparedLike(tx, 'unnamed marker */')).toHaveLength(0);
    });
  });
});
