// What bench/orders.ts needs beside its load: the statements one order issues, captured from the
// API (DB_STATEMENT_LOG, src/db/statement-log.ts) and turned into a pgbench script that replays
// them with fresh values per transaction; and the database's own execution time per order, from
// pg_stat_statements for the bench database only (other databases' counters are never reset).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../src/db/db.js';
import type { StatementLogEntry } from '../src/db/statement-log.js';

/** A logged entry as read back: Date values come as `{ $date: iso }`. */
export type Captured = StatementLogEntry;

/** How the replay makes the values that vary between orders: the listing's and buyer's ids as SQL over pgbench variables. */
export interface ReplayShape {
  listing: string;
  listingSql: string;
  buyer: string;
  buyerSql: string;
  /** Ids that existed before the order (marketplace, seller): kept as they are, never made fresh. */
  existing: readonly string[];
  /** pgbench \set lines for the variables those expressions use. */
  setLines: string[];
}

// An id made by the API for this order (ids.ts: a prefix, then a 26-character ULID).
const FRESH_ID = /^([a-z]{3})_[0-9a-z]{26}$/;
// A fresh id in the replay: the same prefix and length, time-ordered by the server's clock like a
// ULID (10 hex digits of milliseconds), then 16 random hex digits.
const freshId = (prefix: string, variable: string) =>
  `('${prefix}_' || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 10, '0') || lpad(to_hex(CAST(:${variable} AS bigint)), 16, '0'))`;

/**
 * The pgbench script replaying one order's captured statements: the same texts, transaction
 * boundaries and socket writes (a write of several statements is a \startpipeline block), each
 * `$n` replaced by a pgbench variable (-D, bound as a parameter like the API's) or, for what
 * varies per order, an expression: the listing and buyer from random variables, the new ids
 * time-ordered, the times from now() at the captured distance from the order's creation.
 */
export function replayScript(entries: readonly Captured[], shape: ReplayShape): { script: string; vars: Record<string, string> } {
  const vars: Record<string, string> = {};
  const lines = [...shape.setLines];
  const freshVars = new Map<string, string>();
  const dates = entries.flatMap((e) => e.values.filter(isDate).map((d) => Date.parse(d.$date)));
  const base = dates.length > 0 ? Math.min(...dates) : 0;
  const expr = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (isDate(value)) return `(now() + interval '${Date.parse(value.$date) - base} milliseconds')`;
    if (Array.isArray(value)) return value.length === 0 ? `'{}'` : `ARRAY[${value.map(expr).join(', ')}]`;
    if (value === shape.listing) return shape.listingSql;
    if (value === shape.buyer) return shape.buyerSql;
    const fresh = typeof value === 'string' && !shape.existing.includes(value) ? FRESH_ID.exec(value) : null;
    if (fresh) {
      let variable = freshVars.get(value as string);
      if (!variable) {
        variable = `r${freshVars.size + 1}`;
        freshVars.set(value as string, variable);
        lines.push(`\\set ${variable} random(0, 1152921504606846975)`);
      }
      return freshId(fresh[1]!, variable);
    }
    const name = `v${Object.keys(vars).length + 1}`;
    vars[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return `:${name}`;
  };
  const groups: Captured[][] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last && last[0]!.write === entry.write) last.push(entry);
    else groups.push([entry]);
  }
  for (const group of groups) {
    if (group.length > 1) lines.push('\\startpipeline');
    for (const entry of group) {
      if (/(^|[^:]):[A-Za-z_]/.test(entry.sql)) throw new Error(`a captured statement has a ':name' pgbench would read as a variable:\n${entry.sql}`);
      lines.push(`${entry.sql.replace(/\$(\d+)/g, (_, n: string) => expr(entry.values[Number(n) - 1]))};`);
    }
    if (group.length > 1) lines.push('\\endpipeline');
  }
  return { script: `${lines.join('\n')}\n`, vars };
}

function isDate(value: unknown): value is { $date: string } {
  return typeof value === 'object' && value !== null && '$date' in value;
}

export interface PgbenchRun {
  tps: number;
  latencyMs: number;
}

/** pgbench -M prepared -c 8 -j 2 for `seconds` on the script; -D for each variable. */
export function pgbench(dir: string, url: string, name: string, script: string, vars: Record<string, string>, seconds: number): PgbenchRun {
  const file = join(dir, `${name}.sql`);
  writeFileSync(file, script);
  const u = new URL(url);
  const database = u.pathname.slice(1);
  const args = ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres'), '-n', '-M', 'prepared', '-c', '8', '-j', '2', '-T', String(seconds), '-f', file];
  for (const [k, v] of Object.entries(vars)) args.push('-D', `${k}=${v}`);
  args.push(database);
  const out = execFileSync('pgbench', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${out}`);
  return { tps, latencyMs };
}

/**
 * The same script paced at `rate` transactions a second (pgbench -R, -c 8 -j 2), with every
 * transaction's time logged (-l): its p50 and p99, from the transaction's start (the schedule lag
 * left out, as autocannon's latency leaves out a request's wait to be sent). What the database,
 * its WAL flushes included, gives at the rate the API is paced at, with no HTTP or Node in between.
 */
export function pgbenchPaced(dir: string, url: string, name: string, script: string, vars: Record<string, string>, seconds: number, rate: number): { p50Ms: number; p99Ms: number } {
  const file = join(dir, `${name}.sql`);
  writeFileSync(file, script);
  const logs = mkdtempSync(join(dir, 'paced-'));
  const u = new URL(url);
  const args = ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres'), '-n', '-M', 'prepared', '-c', '8', '-j', '2', '-T', String(seconds), '-R', String(rate), '-l', '--log-prefix', join(logs, 'tx'), '-f', file];
  for (const [k, v] of Object.entries(vars)) args.push('-D', `${k}=${v}`);
  args.push(u.pathname.slice(1));
  execFileSync('pgbench', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  // Each line: client, transaction, time (µs), script, epoch, µs[, schedule lag].
  const times = readdirSync(logs)
    .flatMap((log) => readFileSync(join(logs, log), 'utf8').split('\n'))
    .map((line) => Number(line.split(' ')[2]))
    .filter((time) => Number.isFinite(time))
    .sort((a, b) => a - b);
  rmSync(logs, { recursive: true, force: true });
  if (times.length === 0) throw new Error('pgbench -l logged no transaction');
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]! / 1000;
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

// ---- pg_stat_statements, for the bench database only ----

export interface StatementCost {
  query: string;
  calls: number;
  totalMs: number;
  /** Shared buffers hit or read, and WAL bytes written: what the statement touched and wrote, whatever the load. */
  buffers: number;
  walBytes: number;
}

/** What a phase cost the database: its statements, and the orders it made. */
export interface DbCost {
  orders: number;
  statements: StatementCost[];
  /** Execution time of every statement of the phase, per order made. */
  msPerOrder: number;
  buffersPerOrder: number;
  walBytesPerOrder: number;
}

// The bench's own statements carry this comment, so they are left out of the figures.
const OWN = '/* bench */';
const THIS_DB = '(SELECT oid FROM pg_database WHERE datname = current_database())';

export async function enableStatements(db: Db): Promise<void> {
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
}

/** Runs a phase between a reset of this database's counters and their reading; orders counted in the table. */
export async function measureDb<T>(db: Db, phase: () => Promise<T>): Promise<{ result: T; cost: DbCost }> {
  const count = async () => Number((await db.query<{ n: string }>(`${OWN} SELECT count(*) AS n FROM orders`))[0]!.n);
  const before = await count();
  await db.query(`${OWN} SELECT pg_stat_statements_reset(0, ${THIS_DB}, 0)`, []);
  const result = await phase();
  // Let the requests still in flight when the load stopped finish, so they count on both sides.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const statements = (
    await db.query<{ query: string; calls: string; total: number; buffers: string; wal_bytes: string }>(
      `${OWN} SELECT query, calls, total_exec_time AS total, shared_blks_hit + shared_blks_read AS buffers, wal_bytes FROM pg_stat_statements
        WHERE dbid = ${THIS_DB} AND query NOT LIKE $1 ORDER BY total_exec_time DESC`,
      [`%${OWN}%`],
    )
  ).map((row) => ({ query: row.query, calls: Number(row.calls), totalMs: Number(row.total), buffers: Number(row.buffers), walBytes: Number(row.wal_bytes) }));
  const orders = (await count()) - before;
  const perOrder = (of: (s: StatementCost) => number) => (orders > 0 ? statements.reduce((sum, s) => sum + of(s), 0) / orders : NaN);
  return { result, cost: { orders, statements, msPerOrder: perOrder((s) => s.totalMs), buffersPerOrder: perOrder((s) => s.buffers), walBytesPerOrder: perOrder((s) => s.walBytes) } };
}

/** The statements of a phase, one line each: calls per order, mean and per-order milliseconds. */
export function printCost(label: string, cost: DbCost): void {
  console.log(
    `    ${label}: ${cost.msPerOrder.toFixed(3)} ms of execution, ${cost.buffersPerOrder.toFixed(1)} buffers, ${cost.walBytesPerOrder.toFixed(0)} WAL bytes per order (${cost.orders} orders)`,
  );
  for (const s of cost.statements) {
    const perOrder = s.calls / cost.orders;
    if (perOrder < 0.01) continue;
    const text = s.query.replace(/\s+/g, ' ').slice(0, 90);
    const each = (n: number) => (n / cost.orders).toFixed(1).padStart(6);
    console.log(
      `      ${perOrder.toFixed(2).padStart(5)} /order · mean ${(s.totalMs / s.calls).toFixed(3)} ms · ${(s.totalMs / cost.orders).toFixed(3)} ms, ${each(s.buffers)} buffers, ${each(s.walBytes)} WAL bytes /order · ${text}`,
    );
  }
}
