// The schema stays ready to be sharded by tenant (docs/deployment.md, "Sharding"): on a database
// the migrations built (PGlite, or PostgreSQL with TEST_DATABASE=postgres), every table is a
// tenant table or listed as reference or local with its reason, every tenant table's primary key
// and unique index starts with (marketplace_id, mode), every foreign key between tenant tables
// matches both columns (test/architecture/distribution.ts); no statement of src/ joins two tenant
// tables without them but the allowed ones (test/architecture/tenant-joins.ts). Shown failing on a
// fixture migration (test/db/fixtures/distribution/) applied after the real ones. The migration
// that fixed the one break found runs on a database with data, its lookup keeping an index. The Citus plan
// of docs/deployment.md is rendered from the same catalog
// (`UPDATE_DOCS=1 npx vitest run test/db/distribution.test.ts` rewrites it).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import {
  type Catalog,
  describeAllowlist,
  distributionViolations,
  NOT_DISTRIBUTED,
  readCatalog,
  renderShardingPlan,
  tenantTables,
} from '../architecture/distribution.js';
import { sqlLiterals } from '../architecture/tables.js';
import { ALLOWED_CROSS_TENANT_JOINS, crossTenantJoins, tenantJoins } from '../architecture/tenant-joins.js';
import { freshDatabase, type TestDatabase } from '../helpers/harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/db/fixtures/distribution');
const DOC = join(ROOT, 'docs/deployment.md');
const BEGIN = '<!-- sharding-plan: written by test/db/distribution.test.ts -->';
const END = '<!-- /sharding-plan -->';

const opened: TestDatabase[] = [];
let catalog: Catalog;

beforeAll(async () => {
  const database = await freshDatabase();
  opened.push(database);
  await migrate(database.db);
  catalog = await readCatalog(database.db);
});
afterAll(async () => {
  while (opened.length > 0) await opened.pop()!.drop();
});

describe('the distribution rule', () => {
  it('holds on the schema the migrations build', () => {
    console.log(`Tables not distributed by tenant (test/architecture/distribution.ts):\n${describeAllowlist()}`);
    expect(distributionViolations(catalog)).toEqual([]);
    // Not vacuous: the catalog was read, and most tables are tenant tables.
    expect(tenantTables(catalog).length).toBeGreaterThan(25);
    expect(catalog.uniqueIndexes.length).toBeGreaterThan(tenantTables(catalog).length);
    expect(catalog.foreignKeys.length).toBeGreaterThan(20);
  });

  it('names every break of a fixture migration applied after the real ones', async () => {
    const database = await freshDatabase();
    opened.push(database);
    await migrate(database.db, [...loadMigrations(), ...loadMigrations(FIXTURE)]);
    const broken = distributionViolations(await readCatalog(database.db));
    expect(broken).toEqual([
      'table gift_card_batches: neither a tenant table (it has no marketplace_id and mode columns) nor listed in NOT_DISTRIBUTED as a reference or local table with its reason',
      'table gift_card_redemptions: unique constraint gift_card_redemptions_mode_marketplace_id_order_id_key (mode, marketplace_id, order_id) does not start with (marketplace_id, mode): a sharded table can only keep a key unique within its tenant',
      'table gift_card_redemptions: primary key gift_card_redemptions_pkey (id) does not start with (marketplace_id, mode): a sharded table can only keep a key unique within its tenant',
      'table gift_cards: unique index gift_cards_code_key (code) does not start with (marketplace_id, mode): a sharded table can only keep a key unique within its tenant',
      "table gift_card_redemptions: foreign key gift_card_redemptions_gift_card_code_fkey (gift_card_code) -> gift_cards (code) does not match (marketplace_id, mode) to (marketplace_id, mode) on both sides: a row could point into another tenant's shard",
      "table gift_card_redemptions: foreign key gift_card_redemptions_mode_marketplace_id_order_id_fkey (mode, marketplace_id, order_id) -> orders (marketplace_id, mode, id) does not match (marketplace_id, mode) to (marketplace_id, mode) on both sides: a row could point into another tenant's shard",
      'table gift_cards: foreign key gift_cards_issued_by_fkey (issued_by) -> users (id) points from a tenant table to users, a local table: a distributed table can reference only tenant or reference tables',
    ]);
  });

  it('names an allowlist entry whose table is gone, and a table taken off the list', () => {
    const stale = [...NOT_DISTRIBUTED, { table: 'gift_card_batches', placement: 'local' as const, reason: 'a fixture' }];
    expect(distributionViolations(catalog, stale)).toEqual([
      'NOT_DISTRIBUTED lists gift_card_batches (local), but no such table exists any more: remove the entry',
    ]);
    // The job queue carries the tenant's columns (nullable: a workspace's rows have none) but is keyed by id alone.
    const withoutJobs = NOT_DISTRIBUTED.filter((entry) => entry.table !== 'jobs');
    expect(distributionViolations(catalog, withoutJobs)).toEqual([
      'table jobs: primary key jobs_pkey (id) does not start with (marketplace_id, mode): a sharded table can only keep a key unique within its tenant',
    ]);
    const withoutUsers = NOT_DISTRIBUTED.filter((entry) => entry.table !== 'users');
    expect(distributionViolations(catalog, withoutUsers)).toEqual([
      'table users: neither a tenant table (it has no marketplace_id and mode columns) nor listed in NOT_DISTRIBUTED as a reference or local table with its reason',
    ]);
  });
});

describe('the migration that made the schema distribution-ready', () => {
  it("applies on a database holding onboarding links, and the page's lookup by id still uses an index", async () => {
    const database = await freshDatabase();
    opened.push(database);
    const all = loadMigrations();
    const at = all.findIndex((migration) => migration.name.endsWith('_distribution_ready'));
    expect(at).toBeGreaterThan(0);
    await migrate(database.db, all.slice(0, at));
    const now = new Date().toISOString();
    await database.db.query(`INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ('ws_1', 'w', $1, $1)`, [now]);
    await database.db.query(`INSERT INTO marketplaces (id, workspace_id, name, currency, created_at) VALUES ('mkt_1', 'ws_1', 'm', 'usd', $1)`, [now]);
    await database.db.query(`INSERT INTO marketplace_modes (marketplace_id, mode, settings, updated_at) VALUES ('mkt_1', 'test', '{}', $1)`, [now]);
    await database.db.query(`INSERT INTO sellers (marketplace_id, mode, id, created_at, updated_at) VALUES ('mkt_1', 'test', 'sel_1', $1, $1)`, [now]);
    await database.db.query(
      `INSERT INTO onboarding_links (marketplace_id, mode, id, seller_id, return_url, refresh_url, expires_at, created_at)
       SELECT 'mkt_1', 'test', 'obl_' || n, 'sel_1', 'https://example.com/r', 'https://example.com/f', $1, $1 FROM generate_series(1, 3000) AS n`,
      [now],
    );
    expect(await migrate(database.db, all)).toEqual(all.slice(at).map((migration) => migration.name));
    await database.db.query('ANALYZE onboarding_links');
    const plan = await database.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT * FROM onboarding_links WHERE id = 'obl_42'`);
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('onboarding_links_id_idx');
    expect(await database.db.query(`SELECT marketplace_id, mode, seller_id FROM onboarding_links WHERE id = 'obl_42'`)).toEqual([
      { marketplace_id: 'mkt_1', mode: 'test', seller_id: 'sel_1' },
    ]);
  });
});

describe('no statement joins across tenants', () => {
  it('every statement of src/ relating two tenant tables matches (marketplace_id, mode), but the allowed ones', () => {
    console.log(
      `Allowed cross-tenant joins (test/architecture/tenant-joins.ts):\n${ALLOWED_CROSS_TENANT_JOINS.map(
        (entry) => `  ${entry.file} (${entry.joins}): ${entry.reason}`,
      ).join('\n')}`,
    );
    const tenant = new Set(tenantTables(catalog));
    const known = new Set(catalog.tables.keys());
    const literals = sqlLiterals(ROOT);
    const found = literals.flatMap((literal) => crossTenantJoins(literal.text, tenant, known).map((join) => ({ ...literal, join })));
    // Not vacuous: the statements that do relate tenant tables on the tenant key are seen too.
    const matched = literals.flatMap((literal) => tenantJoins(literal.text, tenant, known).filter((join) => join.missing.length === 0));
    expect(matched.length).toBeGreaterThan(10);
    const allowedFor = (finding: (typeof found)[number]) =>
      ALLOWED_CROSS_TENANT_JOINS.find((entry) => entry.file === finding.file && finding.text.includes(entry.contains) && finding.join.startsWith(`${entry.joins} are joined`));
    expect(found.filter((finding) => !allowedFor(finding)).map((finding) => `${finding.file}:${finding.line} ${finding.join}`)).toEqual([]);
    const stale = ALLOWED_CROSS_TENANT_JOINS.filter((entry) => !found.some((finding) => allowedFor(finding) === entry));
    expect(stale.map((entry) => `${entry.file} (${entry.joins}): no statement needs this entry any more`)).toEqual([]);
  });

  it('fails on a fixture statement that joins two tenant tables on an id alone', () => {
    const tenant = new Set(tenantTables(catalog));
    const known = new Set(catalog.tables.keys());
    const fixture = `SELECT p.id, r.amount FROM payments p JOIN refunds r ON r.payment_id = p.id
                      WHERE p.marketplace_id = $1 AND p.mode = $2`;
    expect(crossTenantJoins(fixture, tenant, known)).toEqual(['payments p and refunds r are joined without matching marketplace_id and mode']);
    expect(crossTenantJoins(`${fixture} AND r.marketplace_id = p.marketplace_id AND r.mode = p.mode`, tenant, known)).toEqual([]);
  });
});

describe('docs/deployment.md', () => {
  it('shows the Citus plan as this test renders it from the catalog', () => {
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start, `docs/deployment.md holds the markers ${BEGIN} … ${END}`).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const rendered = `${text.slice(0, start)}${BEGIN}\n\n${renderShardingPlan(catalog)}\n\n${END}${text.slice(end + END.length)}`;
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, rendered);
    expect(text).toBe(rendered);
  });
});
