// The distribution rule (docs/deployment.md, "Sharding"): the schema stays ready to be sharded by
// tenant with Citus. A tenant table is one with the tenant key's columns (marketplace_id, mode);
// it would be distributed by marketplace_id, all of them colocated. Every other table is named in
// NOT_DISTRIBUTED as a reference table (replicated to every node) or a local one (kept on the
// coordinator), with its reason. Read from the catalog of a database the migrations built
// (readCatalog), the rule (distributionViolations) names every table, index and constraint that
// breaks it:
// - a tenant table's primary key or unique index (or constraint) that does not start with
//   (marketplace_id, mode): Citus refuses a unique index without the distribution column, and
//   a tenant's rows are found through its key first;
// - a foreign key between tenant tables that does not match marketplace_id to marketplace_id and
//   mode to mode (it would cross shards); a tenant table referencing a local table, a reference
//   or local table referencing a tenant table, a reference table referencing a local one (Citus
//   has no such keys);
// - a table that is neither a tenant table nor listed, and a listed table that no longer exists.
import type { Queryable } from '../../src/db/db.js';

export const TENANT_KEY = ['marketplace_id', 'mode'] as const;

export type Placement = 'tenant' | 'reference' | 'local';

export interface NotDistributed {
  table: string;
  placement: 'reference' | 'local';
  reason: string;
}

/** The tables that are not distributed by tenant, each with where it would live and why. Keep it short. */
export const NOT_DISTRIBUTED: readonly NotDistributed[] = [
  {
    table: 'workspaces',
    placement: 'reference',
    reason: "the API-key lookup reads each key's workspace (billing state) in its one statement, on any node; a few rows per customer, rarely written",
  },
  {
    table: 'marketplaces',
    placement: 'reference',
    reason: 'the API-key lookup and the access check read it before any tenant is known; one row per marketplace, rarely written',
  },
  {
    table: 'marketplace_modes',
    placement: 'reference',
    reason: "every tenant table's foreign key to its tenant points here, and the workers' and webhook claims join it for the test clock: two rows per marketplace, so it is replicated rather than sharded",
  },
  {
    table: 'api_keys',
    placement: 'reference',
    reason: 'a request is routed to its tenant by its key: the lookup by key hash (unique over every tenant) comes before the tenant is known; a few rows per tenant, written on creation and revocation only',
  },
  { table: 'users', placement: 'local', reason: 'dashboard accounts: above marketplaces, read only by the dashboard and management API on the coordinator' },
  { table: 'workspace_members', placement: 'local', reason: 'who may act on a workspace: control plane, read with users' },
  { table: 'invitations', placement: 'local', reason: 'control plane: a member invited to a workspace' },
  { table: 'management_tokens', placement: 'local', reason: "control plane: a user's management API tokens, found by hash" },
  { table: 'dashboard_sessions', placement: 'local', reason: "control plane: a dashboard user's sessions, found by cookie hash" },
  { table: 'password_resets', placement: 'local', reason: "control plane: a user's reset links, found by hash" },
  { table: 'email_verifications', placement: 'local', reason: "control plane: a user's verification links, found by hash" },
  { table: 'emails', placement: 'local', reason: "control plane: the workspace's outgoing mail (invitations, resets), sent by the job queue" },
  { table: 'login_attempts', placement: 'local', reason: 'control plane: login throttling per email or client address, no tenant' },
  {
    table: 'jobs',
    placement: 'local',
    reason: "the background queue: a row belongs to a tenant or to a workspace (email), and a claim takes the oldest due rows of every tenant in one FOR UPDATE SKIP LOCKED statement, which Citus cannot run across shards; kept whole on the coordinator",
  },
  { table: 'schema_migrations', placement: 'local', reason: 'the migrations applied, one row per file; read at start on the coordinator' },
];

export interface UniqueIndex {
  table: string;
  index: string;
  /** The primary key or unique constraint the index enforces, if any. */
  constraint: string | null;
  primary: boolean;
  /** The key columns in order; an expression as pg_get_indexdef writes it. */
  columns: string[];
}

export interface ForeignKey {
  table: string;
  constraint: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export interface Catalog {
  /** Every table of the current schema with its columns. */
  tables: Map<string, string[]>;
  uniqueIndexes: UniqueIndex[];
  foreignKeys: ForeignKey[];
}

/** The tables, unique indexes and foreign keys of the database's current schema. */
export async function readCatalog(q: Queryable): Promise<Catalog> {
  const columns = await q.query<{ table: string; column: string }>(
    `SELECT c.relname::text AS table, a.attname::text AS column
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
      ORDER BY c.relname, a.attnum`,
  );
  const tables = new Map<string, string[]>();
  for (const row of columns) tables.set(row.table, [...(tables.get(row.table) ?? []), row.column]);
  const uniqueIndexes = await q.query<UniqueIndex>(
    `SELECT t.relname::text AS table, i.relname::text AS index, con.conname::text AS constraint, x.indisprimary AS primary,
            array(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts::int) AS k ORDER BY k)::text[] AS columns
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_constraint con ON con.conindid = x.indexrelid AND con.contype IN ('p', 'u')
      WHERE n.nspname = current_schema() AND x.indisunique
      ORDER BY t.relname, i.relname`,
  );
  const foreignKeys = await q.query<ForeignKey>(
    `SELECT t.relname::text AS table, con.conname::text AS constraint, r.relname::text AS "refTable",
            array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns,
            array(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS "refColumns"
       FROM pg_constraint con
       JOIN pg_class t ON t.oid = con.conrelid
       JOIN pg_class r ON r.oid = con.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND con.contype = 'f'
      ORDER BY t.relname, con.conname`,
  );
  return { tables, uniqueIndexes, foreignKeys };
}

/** Where a table would live: tenant (distributed), reference, local, or null when it is none of them (a violation). */
export function placementOf(table: string, catalog: Catalog, allowlist: readonly NotDistributed[] = NOT_DISTRIBUTED): Placement | null {
  const listed = allowlist.find((entry) => entry.table === table);
  if (listed) return listed.placement;
  const columns = catalog.tables.get(table) ?? [];
  return TENANT_KEY.every((column) => columns.includes(column)) ? 'tenant' : null;
}

/** The tenant tables of the catalog (to be distributed), sorted. */
export function tenantTables(catalog: Catalog, allowlist: readonly NotDistributed[] = NOT_DISTRIBUTED): string[] {
  return [...catalog.tables.keys()].filter((table) => placementOf(table, catalog, allowlist) === 'tenant').sort();
}

const keyName = (index: UniqueIndex): string =>
  index.primary ? `primary key ${index.constraint ?? index.index}` : index.constraint !== null ? `unique constraint ${index.constraint}` : `unique index ${index.index}`;

/** Every break of the distribution rule, one sentence each naming the table and index or constraint; [] when none. */
export function distributionViolations(catalog: Catalog, allowlist: readonly NotDistributed[] = NOT_DISTRIBUTED): string[] {
  const found: string[] = [];
  const placement = (table: string) => placementOf(table, catalog, allowlist);
  for (const [table, columns] of catalog.tables) {
    if (placement(table) !== null) continue;
    const missing = TENANT_KEY.filter((column) => !columns.includes(column));
    found.push(
      `table ${table}: neither a tenant table (it has no ${missing.join(' and ')} column${missing.length > 1 ? 's' : ''}) nor listed in NOT_DISTRIBUTED as a reference or local table with its reason`,
    );
  }
  for (const entry of allowlist) {
    if (!catalog.tables.has(entry.table)) found.push(`NOT_DISTRIBUTED lists ${entry.table} (${entry.placement}), but no such table exists any more: remove the entry`);
  }
  for (const table of tenantTables(catalog, allowlist)) {
    if (!catalog.uniqueIndexes.some((index) => index.table === table && index.primary)) {
      found.push(`table ${table}: a tenant table without a primary key; give it one starting with (marketplace_id, mode)`);
    }
  }
  for (const index of catalog.uniqueIndexes) {
    if (placement(index.table) !== 'tenant') continue;
    if (TENANT_KEY.every((column, at) => index.columns[at] === column)) continue;
    found.push(
      `table ${index.table}: ${keyName(index)} (${index.columns.join(', ')}) does not start with (marketplace_id, mode): a sharded table can only keep a key unique within its tenant`,
    );
  }
  for (const key of catalog.foreignKeys) {
    const from = placement(key.table);
    const to = placement(key.refTable);
    const described = `foreign key ${key.constraint} (${key.columns.join(', ')}) -> ${key.refTable} (${key.refColumns.join(', ')})`;
    if (from === null || to === null) continue; // the unclassified table is reported above
    if (from === 'tenant' && to === 'tenant') {
      const matched = TENANT_KEY.every((column) => key.columns.some((own, at) => own === column && key.refColumns[at] === column));
      if (!matched) {
        found.push(`table ${key.table}: ${described} does not match (marketplace_id, mode) to (marketplace_id, mode) on both sides: a row could point into another tenant's shard`);
      }
    } else if (from === 'tenant' && to === 'local') {
      found.push(`table ${key.table}: ${described} points from a tenant table to ${key.refTable}, a local table: a distributed table can reference only tenant or reference tables`);
    } else if (from !== 'tenant' && to === 'tenant') {
      found.push(`table ${key.table}: ${described} points from a ${from} table to ${key.refTable}, a tenant table: only a tenant table can reference a tenant table`);
    } else if (from === 'reference' && to === 'local') {
      found.push(`table ${key.table}: ${described} points from a reference table to ${key.refTable}, a local table: a table replicated to every node can reference only reference tables`);
    }
  }
  return found;
}

/** The allowlist as the test prints it: one line per table. */
export function describeAllowlist(allowlist: readonly NotDistributed[] = NOT_DISTRIBUTED): string {
  return allowlist.map((entry) => `  ${entry.table} (${entry.placement}): ${entry.reason}`).join('\n');
}

/**
 * The Citus plan docs/deployment.md shows ("Sharding"), as SQL: reference tables (parents first),
 * local tables kept on the coordinator, then every tenant table distributed by marketplace_id in one
 * colocation group, each after the tenant tables it references (Citus distributes a referenced
 * table first).
 */
export function renderShardingPlan(catalog: Catalog, allowlist: readonly NotDistributed[] = NOT_DISTRIBUTED): string {
  const ordered = (tables: string[]): string[] => {
    const done: string[] = [];
    const pending = [...tables].sort();
    while (pending.length > 0) {
      const ready = pending.find((table) =>
        catalog.foreignKeys.every((key) => key.table !== table || key.refTable === table || !pending.includes(key.refTable)),
      );
      const next = ready ?? pending[0]!;
      done.push(next);
      pending.splice(pending.indexOf(next), 1);
    }
    return done;
  };
  const listed = (placement: 'reference' | 'local') =>
    ordered(allowlist.filter((entry) => entry.placement === placement && catalog.tables.has(entry.table)).map((entry) => entry.table));
  const tenants = ordered(tenantTables(catalog, allowlist));
  const lines = [
    `${tenants.length} tenant tables, distributed by \`marketplace_id\`: ${[...tenants].sort().map((table) => `\`${table}\``).join(', ')}.`,
    '',
    '| Table | Placement | Why it is not distributed by tenant |',
    '|---|---|---|',
    ...allowlist.map((entry) => `| \`${entry.table}\` | ${entry.placement} | ${entry.reason} |`),
    '',
    '```sql',
    '-- Reference tables: replicated to every node.',
    ...listed('reference').map((table) => `SELECT create_reference_table('${table}');`),
    '-- Local tables: kept on the coordinator, known to Citus so they join and reference the reference tables.',
    ...listed('local').map((table) => `SELECT citus_add_local_table_to_metadata('${table}');`),
    `-- Tenant tables: distributed by marketplace_id, colocated with ${tenants[0]}.`,
    ...tenants.map((table, at) =>
      at === 0
        ? `SELECT create_distributed_table('${table}', 'marketplace_id');`
        : `SELECT create_distributed_table('${table}', 'marketplace_id', colocate_with => '${tenants[0]}');`,
    ),
    '```',
  ];
  return lines.join('\n');
}
