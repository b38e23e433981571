// Forward-only numbered SQL migrations from migrations/NNNN_name.sql, applied in order in one
// transaction under an advisory lock, so several processes starting together apply them once.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
const LOCK_KEY = 727_310_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(`${dir}/${file}`, 'utf8'),
    }));
}

export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const applied = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version),
    );
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      // Statements run one by one so both drivers take the same path (prepared queries take one
      // statement each); migrations keep one statement per ';'-terminated block.
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      done.push(migration.name);
    }
    return done;
  });
}

/**
 * Splits on semicolons that end a line (a trailing `-- comment` allowed), outside dollar-quoted
 * bodies (`$$ … $$` or tagged, `$body$ … $body$`, as function bodies and DO blocks use).
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let buffer = '';
  let dollarTag: string | null = null;
  for (const line of sql.split('\n')) {
    if (dollarTag === null && /^\s*--/.test(line)) continue;
    buffer += line + '\n';
    for (const match of line.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)?\$/g)) {
      if (dollarTag === null) dollarTag = match[0];
      else if (match[0] === dollarTag) dollarTag = null;
    }
    if (dollarTag === null && /;\s*(--.*)?$/.test(line)) {
      statements.push(buffer.trim());
      buffer = '';
    }
  }
  if (buffer.trim() !== '') statements.push(buffer.trim());
  return statements;
}
