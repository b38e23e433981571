// Tables have owners: each module's manifest names the tables it owns (src/contracts/wiring.ts),
// the folders below the modules own the core's tables (INFRASTRUCTURE_OWNERS), and every SQL
// statement of src/ (test/architecture/tables.ts reads them) touches only its own folder's tables.
// A module that needs another's data calls that module's index.ts. The few statements that read
// or write another's table anyway are ALLOWED_CROSSINGS, each with its reason; the test prints
// them, fails on any other crossing and on an entry no statement needs any more, and keeps the
// section of docs/modules.md between its markers equal to what it renders
// (`UPDATE_DOCS=1 npx vitest run test/architecture/table-owners.test.ts` rewrites it).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../src/app/modules.js';
import { type Access, migratedTables, tablesOfSql, tableUses } from './tables.js';
import { SIMULATED_PROCESSOR_TABLES } from '../../src/adapters/processors/simulated/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DOC = join(ROOT, 'docs/modules.md');
const BEGIN = '<!-- table-owners: written by test/architecture/table-owners.test.ts -->';
const END = '<!-- /table-owners -->';

/** The core's tables, by the folder of src/ that writes them (outbox/ writes events, which the events module owns). */
const INFRASTRUCTURE_OWNERS: Record<string, readonly string[]> = {
  db: ['schema_migrations'],
  http: ['idempotency_keys'],
  workers: ['jobs', 'timers'],
  // The simulated processor's books: the processor's side of test mode, kept by its adapter.
  adapters: SIMULATED_PROCESSOR_TABLES,
};

interface Crossing {
  /** `modules/<name>` or a folder of src/ (`src` for the files directly in it). */
  folder: string;
  tables: readonly string[];
  access: Access;
  reason: string;
}

/** Statements that read or write another owner's table, and why. Keep it short. */
export const ALLOWED_CROSSINGS: readonly Crossing[] = [
  {
    folder: 'modules/orders',
    tables: ['buyers', 'categories', 'listings', 'marketplace_modes', 'sellers'],
    access: 'read',
    reason: "placing an order or a checkout reads its inputs (buyer, listings, sellers, category fees, the mode's settings and clock) in one statement before the transaction (docs/performance.md R2): asking five modules would be five round trips on the hottest write",
  },
  {
    folder: 'modules/accounts',
    tables: ['marketplaces'],
    access: 'read',
    reason: 'the access check finds the workspace of a marketplace; marketplaces imports accounts, so asking it would close a cycle',
  },
  {
    folder: 'modules/categories',
    tables: ['listings'],
    access: 'read',
    reason: "a schema replacement checks the live listings' attributes; listings imports categories, so asking it would close a cycle",
  },
  {
    folder: 'modules/webhooks',
    tables: ['events'],
    access: 'read',
    reason: "a delivery's body is its event's row, read in the claim's statement (one round trip per batch, nothing copied)",
  },
  {
    folder: 'modules/webhooks',
    tables: ['marketplace_modes'],
    access: 'read',
    reason: "the delivery claim compares each row with its tenant's test clock in its one statement, as the workers' claims do",
  },
  {
    folder: 'modules/test-helpers',
    tables: ['timers'],
    access: 'read',
    reason: 'the test clock asks whether a timer fell due; workers/ (below the modules) has no such question yet',
  },
  {
    folder: 'outbox',
    tables: ['events'],
    access: 'write',
    reason: 'every change writes its event in its own transaction; outbox/ sits below the modules and cannot call them',
  },
  {
    folder: 'workers',
    tables: ['marketplace_modes'],
    access: 'read',
    reason: "the job and timer claims compare run_at with each tenant's test clock in one statement; workers/ cannot call modules",
  },
  {
    folder: 'src',
    tables: ['marketplace_modes'],
    access: 'read',
    reason: "scope.ts's modeNow reads the test clock's offset inside the caller's transaction; the kernel cannot call modules",
  },
  {
    folder: 'http',
    tables: ['api_keys', 'marketplaces', 'marketplace_modes', 'workspaces'],
    access: 'read',
    reason: "the API-key cache loads a key's whole context (key, marketplace, mode, workspace) in one statement on a miss",
  },
  {
    folder: 'app',
    tables: ['workspaces'],
    access: 'read',
    reason: 'the first start creates the demo workspace only when no workspace exists yet',
  },
  {
    folder: 'app',
    tables: ['workspaces'],
    access: 'write',
    reason: 'the same first start locks the table (LOCK TABLE) so racing starts make one demo',
  },
];

const tables = migratedTables(ROOT);
const uses = tableUses(ROOT, tables);

/** Every owner (`modules/<name>` or an infrastructure folder) with its tables. */
function owners(): Map<string, readonly string[]> {
  const byOwner = new Map<string, readonly string[]>();
  for (const manifest of MODULES) byOwner.set(`modules/${manifest.name}`, manifest.tables ?? []);
  for (const [folder, owned] of Object.entries(INFRASTRUCTURE_OWNERS)) byOwner.set(folder, owned);
  return byOwner;
}

function ownerOf(table: string): string | undefined {
  return [...owners()].find(([, owned]) => owned.includes(table))?.[0];
}

const allowed = (folder: string, table: string, access: Access) =>
  ALLOWED_CROSSINGS.some((entry) => entry.folder === folder && entry.access === access && entry.tables.includes(table));

/** Each crossing (folder, table, access) with how many statements make it, sorted. */
function crossings(): { folder: string; table: string; access: Access; owner: string; statements: number }[] {
  const counted = new Map<string, { folder: string; table: string; access: Access; owner: string; statements: number }>();
  for (const use of uses) {
    const owner = ownerOf(use.table) ?? '(none)';
    if (owner === use.folder) continue;
    const key = `${use.folder} ${use.table} ${use.access}`;
    const entry = counted.get(key) ?? { folder: use.folder, table: use.table, access: use.access, owner, statements: 0 };
    entry.statements++;
    counted.set(key, entry);
  }
  return [...counted.values()].sort((a, b) => `${a.folder} ${a.table} ${a.access}`.localeCompare(`${b.folder} ${b.table} ${b.access}`));
}

/** The section of docs/modules.md: owners, then the allowed crossings with their statement counts. */
function renderSection(): string {
  const counts = crossings();
  const lines = [BEGIN, '', '| Owner | Tables |', '|---|---|'];
  for (const [owner, owned] of owners()) {
    if (owned.length > 0) lines.push(`| ${owner.startsWith('modules/') ? owner.slice('modules/'.length) : `${owner}/ (core)`} | ${owned.join(', ')} |`);
  }
  lines.push('', '| Folder | Tables | Access | Statements | Why |', '|---|---|---|---|---|');
  for (const entry of ALLOWED_CROSSINGS) {
    const statements = entry.tables
      .map((table) => counts.find((c) => c.folder === entry.folder && c.table === table && c.access === entry.access)?.statements ?? 0)
      .join(', ');
    lines.push(`| ${entry.folder} | ${entry.tables.join(', ')} | ${entry.access} | ${statements} | ${entry.reason} |`);
  }
  lines.push('', END);
  return lines.join('\n');
}

describe('tables have owners', () => {
  it('every table of the migrations has exactly one owner, and every owned table exists', () => {
    // The flows' manifests (src/flows/manifests.ts) carry routes and timers only: a flow owns no table.
    const flows = MODULES.filter((manifest) => manifest.name.startsWith('flow: '));
    expect(flows.filter((manifest) => (manifest.tables ?? []).length > 0).map((manifest) => manifest.name), 'a flow that owns tables').toEqual([]);
    const folders = MODULES.filter((manifest) => !flows.includes(manifest)).map((manifest) => manifest.name).filter((name) => !existsSync(join(ROOT, 'src/modules', name, 'module.ts')));
    expect(folders, 'a manifest whose name is not its folder under src/modules').toEqual([]);
    const owned = [...owners()].flatMap(([owner, list]) => list.map((table) => ({ owner, table })));
    const ownersOf = (table: string) => owned.filter((entry) => entry.table === table).map((entry) => entry.owner);
    expect(tables.filter((table) => ownersOf(table).length !== 1).map((table) => `${table}: ${ownersOf(table).join(', ') || 'no owner'}`)).toEqual([]);
    expect(owned.filter((entry) => !tables.includes(entry.table)).map((entry) => `${entry.owner}: ${entry.table}`)).toEqual([]);
  });

  it('no folder of src/ reads or writes a table it does not own, but the allowed crossings', () => {
    console.log(
      `Allowed table crossings (test/architecture/table-owners.test.ts):\n${ALLOWED_CROSSINGS.map(
        (entry) => `  ${entry.folder} ${entry.access}s ${entry.tables.join(', ')}: ${entry.reason}`,
      ).join('\n')}`,
    );
    const found = crossings();
    const refused = found
      .filter((c) => !allowed(c.folder, c.table, c.access))
      .flatMap((c) =>
        uses
          .filter((use) => use.folder === c.folder && use.table === c.table && use.access === c.access)
          .map((use) => `${use.file}:${use.line} ${use.access}s ${use.table} (owned by ${c.owner}): ask the owner's index.ts`),
      );
    expect(refused).toEqual([]);
    const stale = ALLOWED_CROSSINGS.flatMap((entry) =>
      entry.tables
        .filter((table) => !found.some((c) => c.folder === entry.folder && c.table === table && c.access === entry.access))
        .map((table) => `${entry.folder} ${entry.access} ${table}: no statement needs this entry any more`),
    );
    expect(stale).toEqual([]);
  });

  it('docs/modules.md shows the owners and the allowed crossings as this test renders them', () => {
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start, `docs/modules.md holds the markers ${BEGIN} … ${END}`).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const rendered = `${text.slice(0, start)}${renderSection()}${text.slice(end + END.length)}`;
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, rendered);
    expect(text).toBe(rendered);
  });
});

describe('the statements a table is read from', () => {
  const known = new Set(['orders', 'listings', 'sellers', 'buyers', 'events', 'timers']);
  const of = (sql: string) => tablesOfSql(sql, known).map(({ table, access }) => `${access} ${table}`);

  it('finds reads after FROM, JOIN and a FROM list, writes after INSERT INTO, UPDATE and DELETE FROM', () => {
    expect(of('SELECT o.id FROM orders o JOIN listings AS l ON l.id = o.listing_id LEFT JOIN sellers s ON true')).toEqual([
      'read orders',
      'read listings',
      'read sellers',
    ]);
    expect(of('SELECT 1 FROM orders o, listings l, sellers WHERE o.id = l.id')).toEqual(['read orders', 'read listings', 'read sellers']);
    expect(of("INSERT INTO orders (id) SELECT id FROM buyers ON CONFLICT (id) DO UPDATE SET id = 'x'")).toEqual(['write orders', 'read buyers']);
    expect(of('UPDATE orders o SET x = s.x FROM sellers s WHERE s.id = o.seller_id')).toEqual(['write orders', 'read sellers']);
    expect(of('DELETE FROM orders o USING listings l WHERE l.id = o.listing_id RETURNING o.id')).toEqual(['write orders', 'read listings']);
    expect(of('TRUNCATE TABLE timers')).toEqual(['write timers']);
  });

  it('takes no CTE, alias, locking clause, string, comment or column for a table', () => {
    const sql = `WITH orders AS (SELECT id FROM listings FOR UPDATE OF listings SKIP LOCKED),
      moved AS MATERIALIZED (UPDATE sellers SET n = 1 RETURNING id)
      SELECT 'FROM buyers' AS text, extract(epoch FROM created_at) FROM orders JOIN moved events ON true -- FROM timers
      WHERE a IS DISTINCT FROM events /* JOIN buyers */`;
    expect(of(sql)).toEqual(['read listings', 'write sellers']);
  });
});
