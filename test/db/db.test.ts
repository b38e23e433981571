// The database layer on the kind of database this run tests (PGlite, or PostgreSQL with
// TEST_DATABASE=postgres): transactions, savepoints, afterCommit, and no self-deadlock on PGlite.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDb, inTransaction, type Db, type Driver } from '../../src/db/db.js';
import { freshDatabase, usingPostgres, type TestDatabase } from '../helpers/harness.js';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  await db.exec('CREATE TABLE t (id integer PRIMARY KEY, note text NOT NULL)');
});
afterAll(() => database.drop());
beforeEach(() => db.query('DELETE FROM t'));

const ids = async () => (await db.query<{ id: number }>('SELECT id FROM t ORDER BY id')).map((row) => row.id);

describe('transactions', () => {
  it('reports the kind of database', () => {
    expect(db.kind).toBe(usingPostgres ? 'postgres' : 'pglite');
  });

  it('commit what they did and return the function’s result', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1, $1)', ['a']);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await ids()).toEqual([1]);
  });

  it('roll back everything when the function throws, and rethrow', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (1, $1)', ['a']);
        throw new Error('nope');
      }),
    ).rejects.toThrow('nope');
    expect(await ids()).toEqual([]);
  });

  it('roll back on a failing statement too', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (1, $1)', ['a']);
        await tx.query('INSERT INTO t VALUES (1, $1)', ['duplicate']);
      }),
    ).rejects.toThrow();
    expect(await ids()).toEqual([]);
  });

  it('nest as savepoints: an inner failure rolls back only the inner part', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1, $1)', ['outer']);
      await expect(
        db.transaction(async (inner) => {
          await inner.query('INSERT INTO t VALUES (2, $1)', ['inner']);
          await inner.query('INSERT INTO t VALUES (2, $1)', ['duplicate']); // aborts the inner part
        }),
      ).rejects.toThrow();
      // The outer transaction is still usable after the savepoint rolled back.
      await tx.query('INSERT INTO t VALUES (3, $1)', ['after']);
      await db.transaction(async (inner) => {
        await inner.query('INSERT INTO t VALUES (4, $1)', ['inner ok']);
        await db.transaction((deeper) => deeper.query('INSERT INTO t VALUES (5, $1)', ['deeper']));
      });
    });
    expect(await ids()).toEqual([1, 3, 4, 5]);
  });

  it('an inner success is undone when the outer fails', async () => {
    await expect(
      db.transaction(async () => {
        await db.transaction((inner) => inner.query('INSERT INTO t VALUES (1, $1)', ['inner']));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await ids()).toEqual([]);
  });

  it('db.query inside a transaction uses its connection: sees its writes, no deadlock on PGlite', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1, $1)', ['a']);
      expect(inTransaction(db)).toBe(true);
      const seen = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t');
      expect(seen[0]!.n).toBe(1);
    });
    expect(inTransaction(db)).toBe(false);
  });

  it('other work outside the transaction is not visible inside it until commit (and waits on PGlite)', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const open = db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1, $1)', ['uncommitted']);
      await hold;
    });
    // Started from another async context: not part of the open transaction.
    const outside = Promise.resolve().then(() => db.query<{ n: number }>('SELECT count(*)::int AS n FROM t'));
    if (usingPostgres) expect((await outside)[0]!.n).toBe(0);
    release();
    await open;
    if (!usingPostgres) expect((await outside)[0]!.n).toBe(1);
  });

  it('concurrent transactions both commit', async () => {
    await Promise.all([1, 2, 3, 4].map((id) => db.transaction((tx) => tx.query('INSERT INTO t VALUES ($1, $2)', [id, 'c']))));
    expect(await ids()).toEqual([1, 2, 3, 4]);
  });
});

describe('afterCommit', () => {
  it('runs only after the outermost commit, in order', async () => {
    const seen: string[] = [];
    await db.transaction(async (tx) => {
      tx.afterCommit(() => void seen.push('outer'));
      await db.transaction(async (inner) => {
        inner.afterCommit(() => void seen.push('inner'));
      });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['outer', 'inner']);
  });

  it('sees the committed data when it runs, outside the transaction; the transaction resolves after it', async () => {
    let count = -1;
    let inside = true;
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1, $1)', ['a']);
      tx.afterCommit(async () => {
        inside = inTransaction(db);
        await new Promise((resolve) => setTimeout(resolve, 20));
        count = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t'))[0]!.n;
      });
    });
    expect(count).toBe(1);
    expect(inside).toBe(false);
  });

  it('does not run when the transaction rolls back', async () => {
    const seen: string[] = [];
    await expect(
      db.transaction(async (tx) => {
        tx.afterCommit(() => void seen.push('never'));
        throw new Error('rollback');
      }),
    ).rejects.toThrow();
    expect(seen).toEqual([]);
  });

  it('drops the hooks of a savepoint that rolled back, keeps the rest', async () => {
    const seen: string[] = [];
    await db.transaction(async (tx) => {
      tx.afterCommit(() => void seen.push('kept'));
      await db
        .transaction(async (inner) => {
          inner.afterCommit(() => void seen.push('dropped'));
          throw new Error('inner fails');
        })
        .catch(() => undefined);
    });
    expect(seen).toEqual(['kept']);
  });

  it('a hook that throws does not turn a committed transaction into a failure', async () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const seen: string[] = [];
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1, $1)', ['a']);
      tx.afterCommit(() => {
        throw new Error('hook failed');
      });
      tx.afterCommit(() => void seen.push('next hook still runs'));
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(seen).toEqual(['next hook still runs']);
    expect(await ids()).toEqual([1]);
    expect(warning).toHaveBeenCalledWith(expect.objectContaining({ message: 'hook failed' }), expect.anything());
    warning.mockRestore();
  });

  it('reports a hook’s error to onAfterCommitError when given', async () => {
    const reported: unknown[] = [];
    const fake: Driver = {
      kind: 'postgres',
      query: async () => [],
      exec: async () => undefined,
      withTransaction: (fn) => fn({ query: async () => [] }),
      stats: () => ({ max: 1, total: 0, idle: 0, waiting: 0, transactionsOpen: 0 }),
      close: async () => undefined,
    };
    const other = createDb(fake, { onAfterCommitError: (error) => reported.push(error) });
    await other.transaction(async (tx) => {
      tx.afterCommit(() => {
        throw new Error('reported');
      });
    });
    expect(reported).toEqual([expect.objectContaining({ message: 'reported' })]);
  });
});

describe('values', () => {
  it('reads bigint as numbers and timestamptz(3) with milliseconds', async () => {
    const [row] = await db.query<{ big: number; at: Date }>(
      `SELECT 99999999999::bigint AS big, '2026-11-21T09:30:00.123Z'::timestamptz(3) AS at`,
    );
    expect(row!.big).toBe(99_999_999_999);
    expect(row!.at).toBeInstanceOf(Date);
    expect(row!.at.toISOString()).toBe('2026-11-21T09:30:00.123Z');
  });

  it('round-trips jsonb parameters and results', async () => {
    const [row] = await db.query<{ doc: unknown }>('SELECT $1::jsonb AS doc', [JSON.stringify({ a: [1, 'two'] })]);
    expect(row!.doc).toEqual({ a: [1, 'two'] });
  });
});
