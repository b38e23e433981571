// Migrations: numbered SQL files applied once, in order, in one transaction, under an advisory
// lock so processes starting together do not apply them twice; and the statement splitter.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/db.js';
import { postgresDriver } from '../../src/db/drivers.js';
import { loadMigrations, migrate, splitStatements } from '../../src/db/migrate.js';
import { freshDatabase, usingPostgres, type TestDatabase } from '../helpers/harness.js';

const opened: TestDatabase[] = [];
async function fresh() {
  const database = await freshDatabase();
  opened.push(database);
  return database;
}
afterEach(async () => {
  while (opened.length > 0) await opened.pop()!.drop();
});

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mkt-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

describe('migrate', () => {
  it('applies every migration of the repository once, in order, and reruns as a no-op', async () => {
    const { db } = await fresh();
    const all = loadMigrations();
    expect(all.map((m) => m.version)).toEqual([...all.map((m) => m.version)].sort((a, b) => a - b));
    expect(await migrate(db)).toEqual(all.map((m) => m.name));
    expect(await migrate(db)).toEqual([]);
    const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(all.map((m) => m.version));
  });

  it('applies only the migrations added since the last run', async () => {
    const { db } = await fresh();
    const first = { '0001_a.sql': 'CREATE TABLE a (id int);\n' };
    expect(await migrate(db, loadMigrations(migrationsDir(first)))).toEqual(['0001_a']);
    const more = loadMigrations(migrationsDir({ ...first, '0002_b.sql': 'CREATE TABLE b (id int);\nINSERT INTO b VALUES (1);\n' }));
    expect(await migrate(db, more)).toEqual(['0002_b']);
    expect(await db.query('SELECT id FROM b')).toEqual([{ id: 1 }]);
  });

  it('a failing migration applies nothing of the run', async () => {
    const { db } = await fresh();
    const dir = migrationsDir({ '0001_ok.sql': 'CREATE TABLE ok (id int);\n', '0002_bad.sql': 'CREATE TABLE broken (id nosuchtype);\n' });
    await expect(migrate(db, loadMigrations(dir))).rejects.toThrow();
    const tables = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name IN ('ok', 'schema_migrations')`);
    expect(tables).toEqual([]);
  });

  it('ignores files that are not NNNN_name.sql', () => {
    const dir = migrationsDir({ '0001_a.sql': 'SELECT 1;', 'README.md': '#', '1_short.sql': 'SELECT 1;', '0002_B.sql': 'SELECT 1;' });
    expect(loadMigrations(dir).map((m) => m.name)).toEqual(['0001_a']);
  });

  it('two migrate() calls racing apply each migration once', async () => {
    const database = await fresh();
    // On PostgreSQL: two pools, as two processes starting together. On PGlite: two calls at once.
    const second = usingPostgres ? createDb(postgresDriver(database.url!, 2)) : database.db;
    try {
      const results = await Promise.all([migrate(database.db), migrate(second), migrate(database.db)]);
      const names = loadMigrations().map((m) => m.name);
      expect(results.flat().sort()).toEqual([...names].sort());
      expect(results.filter((r) => r.length > 0)).toHaveLength(1);
    } finally {
      if (second !== database.db) await second.close();
    }
  });
});

describe('splitStatements', () => {
  it('splits on semicolons that end a line and drops comment lines', () => {
    const sql = '-- header\nCREATE TABLE a (\n  id int -- inline\n);\n\nCREATE INDEX a_idx ON a (id);\n';
    expect(splitStatements(sql)).toEqual(['CREATE TABLE a (\n  id int -- inline\n);', 'CREATE INDEX a_idx ON a (id);']);
  });

  it('keeps dollar-quoted bodies whole, with or without a tag', () => {
    const fn = 'CREATE FUNCTION f() RETURNS trigger AS $$\nBEGIN\n  NEW.x := 1;\n  RETURN NEW;\nEND;\n$$ LANGUAGE plpgsql;';
    const tagged = 'DO $body$\nBEGIN\n  PERFORM 1;\nEND;\n$body$;';
    expect(splitStatements(`${fn}\n${tagged}\nSELECT 1;\n`)).toEqual([fn, tagged, 'SELECT 1;']);
  });

  it('splits after a semicolon followed by a comment', () => {
    expect(splitStatements('SELECT 1; -- one\nSELECT 2;\n')).toEqual(['SELECT 1; -- one', 'SELECT 2;']);
  });

  it('keeps a last statement without a semicolon', () => {
    expect(splitStatements('SELECT 1;\nSELECT 2')).toEqual(['SELECT 1;', 'SELECT 2']);
  });

  it('every statement of the repository’s migrations runs on its own', async () => {
    for (const migration of loadMigrations()) {
      for (const statement of splitStatements(migration.sql)) expect(statement.replace(/--.*$/gm, '').trim()).toMatch(/;$/);
    }
  });
});
