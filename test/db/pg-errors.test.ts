// Database errors turned into domain errors: unique violations by index, and the deadlock of two
// updates that swap unique values (a real one on PostgreSQL; PGlite has one connection).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/db.js';
import { postgresDriver } from '../../src/db/drivers.js';
import { mapUniqueViolations } from '../../src/db/pg-errors.js';
import { freshDatabase, usingPostgres, type TestDatabase } from '../helpers/harness.js';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  await db.exec('CREATE TABLE handles (id integer PRIMARY KEY, handle text NOT NULL CONSTRAINT handles_handle_key UNIQUE)');
});
afterAll(() => database.drop());
beforeEach(async () => {
  await db.query('DELETE FROM handles');
  await db.query("INSERT INTO handles (id, handle) VALUES (1, 'x'), (2, 'y')");
});

const taken = () => new Error('taken');

describe('mapUniqueViolations', () => {
  it('turns a violation of a named index into its error, and leaves other errors alone', async () => {
    await expect(
      mapUniqueViolations(() => db.query("UPDATE handles SET handle = 'y' WHERE id = 1"), { handles_handle_key: taken }),
    ).rejects.toThrow('taken');
    await expect(mapUniqueViolations(() => db.query("UPDATE handles SET handle = 'y' WHERE id = 1"), {})).rejects.toMatchObject({
      code: '23505',
    });
    await expect(mapUniqueViolations(() => db.query('SELECT * FROM nowhere'), { handles_handle_key: taken })).rejects.toMatchObject({
      code: '42P01',
    });
  });

  it.runIf(usingPostgres)('answers the deadlock of a swap with the deadlock error when given, and only then', async () => {
    const other = createDb(postgresDriver(database.url!, 2));
    // Each side frees its value, then takes the other's: each waits in the unique index for the
    // other's uncommitted old value, and PostgreSQL fails one of them.
    const swap = async (on: Db, id: number, freed: string, wanted: string, options: { deadlock?: () => Error }, ready: Promise<void>, done: () => void) =>
      mapUniqueViolations(
        () =>
          on.transaction(async (tx) => {
            await tx.query('UPDATE handles SET handle = $2 WHERE id = $1', [id, freed]);
            done();
            await ready;
            await tx.query('UPDATE handles SET handle = $2 WHERE id = $1', [id, wanted]);
          }),
        { handles_handle_key: taken },
        options,
      );
    for (const options of [{ deadlock: () => new Error('deadlock means taken') }, {}]) {
      await db.query("UPDATE handles SET handle = CASE id WHEN 1 THEN 'x' ELSE 'y' END");
      let firstFreed!: () => void;
      let secondFreed!: () => void;
      const first = new Promise<void>((resolve) => (firstFreed = resolve));
      const second = new Promise<void>((resolve) => (secondFreed = resolve));
      const results = await Promise.allSettled([
        swap(db, 1, 'tmp-1', 'y', options, second, firstFreed),
        swap(other, 2, 'tmp-2', 'x', options, first, secondFreed),
      ]);
      const reasons = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as { message?: string; code?: string }] : []));
      if ('deadlock' in options) {
        // The victim answers the conflict; the other then finds its value taken by the rolled-back side.
        expect(reasons.map((reason) => reason.message).sort()).toEqual(['deadlock means taken', 'taken']);
      } else {
        expect(reasons.map((reason) => reason.code ?? reason.message).sort()).toEqual(['40P01', 'taken']);
      }
    }
    await other.close();
  });
});
