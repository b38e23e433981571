// An opt-in record of every statement a process sends to PostgreSQL, with its values, its
// transaction and the socket write it left in: bench/orders.ts replays an order's statements with
// pgbench from it (bench/README.md). Off unless DB_STATEMENT_LOG names a file (config.ts); when on,
// each statement costs a synchronous append, so it is for captures, never for a measured run.
import { appendFileSync } from 'node:fs';

export interface StatementLogEntry {
  sql: string;
  values: readonly unknown[];
  /** The transaction's number in this process; null for a statement outside one. */
  tx: number | null;
  /** Statements with the same number left in one socket write (a pipeline). */
  write: number;
}

export type StatementLog = (entry: StatementLogEntry) => void;

/** Appends each entry to `path` as a JSON line; a Date value is written as `{"$date": iso}`. */
export function statementLogTo(path: string): StatementLog {
  return (entry) => {
    const values = entry.values.map((value) => (value instanceof Date ? { $date: value.toISOString() } : value));
    appendFileSync(path, `${JSON.stringify({ ...entry, values })}\n`);
  };
}
