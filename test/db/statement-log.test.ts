// The opt-in statement log of the PostgreSQL driver (DB_STATEMENT_LOG, src/db/statement-log.ts),
// from which bench/orders.ts replays an order's statements: each statement with its values, its
// transaction, and the socket write it left in. PostgreSQL only (PGlite has no socket to log).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/db.js';
import { postgresDriver } from '../../src/db/drivers.js';
import { statementLogTo, type StatementLogEntry } from '../../src/db/statement-log.js';
import { freshDatabase, type TestDatabase } from '../helpers/harness.js';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await freshDatabase();
  dir = mkdtempSync(join(tmpdir(), 'statement-log-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

describe.runIf(process.env.TEST_DATABASE === 'postgres')('the statement log', () => {
  it('records each statement with its values, its transaction and its socket write', async () => {
    const path = join(dir, 'log.jsonl');
    const db: Db = createDb(postgresDriver(database.url!, 2, statementLogTo(path)));
    try {
      const at = new Date('2026-01-02T03:04:05.678Z');
      await db.query('SELECT $1::text AS a', ['outside']);
      await db.transaction(async (tx) => {
        // Issued together: one write with the BEGIN. Then one with the COMMIT.
        await Promise.all([tx.query('SELECT $1::timestamptz AS t', [at]), tx.query('SELECT $1::int AS n', [7])]);
        await tx.queryThenCommit('SELECT $1::text[] AS l', [['x', 'y']]);
      });
      const entries = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as StatementLogEntry);
      expect(entries.map((e) => [e.sql, e.values])).toEqual([
        ['SELECT $1::text AS a', ['outside']],
        ['BEGIN', []],
        ['SELECT $1::timestamptz AS t', [{ $date: at.toISOString() }]],
        ['SELECT $1::int AS n', [7]],
        ['SELECT $1::text[] AS l', [['x', 'y']]],
        ['COMMIT', []],
      ]);
      const [outside, begin, first, second, last, commit] = entries as [StatementLogEntry, ...StatementLogEntry[]];
      expect(outside.tx).toBeNull();
      expect(new Set([begin, first, second, last, commit].map((e) => e!.tx)).size).toBe(1);
      expect(begin!.tx).not.toBeNull();
      expect([first!.write, second!.write]).toEqual([begin!.write, begin!.write]);
      expect(commit!.write).toBe(last!.write);
      expect(last!.write).toBeGreaterThan(begin!.write);
      expect(begin!.write).toBeGreaterThan(outside.write);
    } finally {
      await db.close();
    }
  });
});
