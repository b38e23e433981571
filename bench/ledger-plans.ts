// The plans the service really ran, for the ledger bench (bench/ledger.ts): a second service
// process whose connections load auto_explain (PGOPTIONS: every statement's plan with ANALYZE and
// BUFFERS, at log level LOG) writes them to the PostgreSQL server's log; this reads the part of
// the log written during one request (by the bench database's sessions) and keeps the plans of
// the statements on ledger_lines. The measured service runs without auto_explain, so its timings
// carry no EXPLAIN overhead.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** The server's log file (DATABASE_URL's server must be local: the bench reads it). */
export const SERVER_LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';

/** PGOPTIONS for the plan service: auto_explain on every statement of its connections. */
export const AUTO_EXPLAIN_OPTIONS = [
  '-c session_preload_libraries=auto_explain',
  '-c auto_explain.log_min_duration=0',
  '-c auto_explain.log_analyze=on',
  '-c auto_explain.log_buffers=on',
  '-c auto_explain.log_timing=on',
  '-c auto_explain.log_nested_statements=off',
].join(' ');

export function logSize(): number {
  return statSync(SERVER_LOG).size;
}

function readFrom(offset: number): string {
  const size = logSize();
  if (size <= offset) return '';
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(SERVER_LOG, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** A log record starts with log_line_prefix's timestamp (`%m [%p] %q%u@%d `); continuation lines do not. */
const RECORD_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;

/** The plans auto_explain logged since `offset` by sessions of `database`, whose query text matches `table`. */
export function plansSince(offset: number, database: string, table = 'ledger_lines'): string[] {
  const records: string[][] = [];
  for (const line of readFrom(offset).split('\n')) {
    if (RECORD_START.test(line)) records.push([line]);
    else records[records.length - 1]?.push(line);
  }
  return records
    .filter((record) => record[0]!.includes(`@${database} `) && record[0]!.includes('plan:') && record.some((line) => line.includes(table)))
    .map((record) => record.join('\n'));
}

export interface PlanShape {
  /** Index scans (any kind) in the plan. */
  indexScans: string[];
  seqScans: number;
  sorts: number;
  bitmapScans: number;
  /** Rows the scans returned plus those their filters removed: what was read. */
  rowsRead: number;
}

/** What a plan does, from its text form: the scans, sorts and the rows it read. */
export function planShape(plan: string): PlanShape {
  const indexScans = [...plan.matchAll(/(Index (?:Only )?Scan(?: Backward)? using \S+)/g)].map((match) => match[1]!);
  let rowsRead = 0;
  const lines = plan.split('\n');
  lines.forEach((line, i) => {
    if (!/(Index (Only )?Scan|Seq Scan|Bitmap Heap Scan)/.test(line)) return;
    rowsRead += Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/.exec(line)?.[1] ?? 0);
    for (let j = i + 1; j < lines.length && !lines[j]!.includes('->'); j++) {
      rowsRead += Number(/Rows Removed by (?:Filter|Index Recheck): (\d+)/.exec(lines[j]!)?.[1] ?? 0);
    }
  });
  return {
    indexScans,
    seqScans: (plan.match(/Seq Scan/g) ?? []).length,
    sorts: lines.filter((line) => /(?:^|->\s+|\t)(?:Incremental )?Sort\s+\(/.test(line)).length,
    bitmapScans: (plan.match(/Bitmap (?:Heap|Index) Scan/g) ?? []).length,
    rowsRead,
  };
}

/** The plan body without auto_explain's record header (the query text stays). */
export function planBody(plan: string): string {
  return plan
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/^\t/, ''))
    .join('\n')
    .trim();
}
