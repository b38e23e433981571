// Architecture rules that code review alone would let slip, checked by reading the source
// (docs/architecture.md, "Import rules"): every SQL statement of a module is in its queries.ts and
// names the marketplace and mode it reads or writes (workspace-level tables their workspace
// instead); no module imports another module's queries; nothing reads process.env but the
// configuration. A rule broken fails here with the file and the offending text. The rules on the
// import graph (cycles, layers, module surfaces, docs' paths) are in test/architecture/. The
// scoping rule's stricter half for statements that relate tenant tables (every join matches
// marketplace_id and mode) runs over all of src/ in test/db/distribution.test.ts, beside the
// schema's distribution rule, since it needs the catalog to know the tenant tables.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const MODULES = join(SRC, 'modules');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const rel = (path: string) => relative(ROOT, path);

/** The module a file of src/modules belongs to ('sellers' for src/modules/sellers/routes/x.ts). */
function moduleOf(path: string): string | null {
  const inside = relative(MODULES, path);
  if (inside.startsWith('..')) return null;
  const [first, second] = inside.split('/');
  return second === undefined ? null : (first ?? null);
}

/** String and template literals of a file that read as SQL statements. */
function sqlStatements(source: string): string[] {
  const literals = source.match(/`(?:[^`\\]|\\.)*`|'(?:[^'\\\n]|\\.)*'/g) ?? [];
  return literals
    .map((literal) => literal.slice(1, -1))
    .filter((text) => /^\s*(SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|WITH)\b/i.test(text) && /\b(FROM|INTO|SET)\b/i.test(text));
}

// Tables that sit above marketplaces: scoped by their workspace (or user, or token) instead.
const WORKSPACE_TABLES = ['workspaces', 'workspace_members', 'users', 'invitations', 'management_tokens', 'emails', 'login_attempts', 'marketplaces', 'dashboard_sessions', 'password_resets', 'email_verifications'];

// Statements that may name neither, each with the reason (keep this list short).
const ALLOWED_UNSCOPED: { file: string; contains: string; why: string }[] = [
  {
    file: 'src/modules/onboarding/queries.ts',
    contains: 'FROM onboarding_links WHERE id = $1',
    why: "the simulated processor's hosted page is reached by its link id alone (no API key, so no scope is known); the row found names its marketplace and mode, and everything after is scoped by them",
  },
  {
    file: 'src/modules/payments/queries.ts',
    contains: "FROM payments WHERE id = $1 AND provider = 'simulated'",
    why: "the simulated processor's checkout page is reached by the payment id alone, like its onboarding page",
  },
  {
    file: 'src/modules/webhooks/queries.ts',
    contains: 'count(*) FILTER (WHERE d.locked_until > $1)::int AS in_flight',
    why: "GET /metrics' figures of the deliveries still to make: counts over every marketplace and mode (like the dispatcher's claim, which spans them by design), for the operator; no row of any marketplace is returned",
  },
  {
    file: 'src/modules/webhooks/queries.ts',
    contains: "WHERE error = 'pending_limit_exceeded' GROUP BY mode",
    why: "GET /metrics' count of deliveries written failed at an endpoint's bound of pending deliveries, per mode over every marketplace, for the operator; no row of any marketplace is returned",
  },
];

function tablesOf(statement: string): string[] {
  // `DO UPDATE SET` and `FOR UPDATE OF` name no table.
  const notTables = new Set(['set', 'of', 'skip', 'nowait']);
  return [...statement.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)/gi)]
    .map((m) => (m[1] ?? '').toLowerCase())
    .filter((name) => !notTables.has(name));
}

describe('architecture', () => {
  const files = sourceFiles(SRC);

  it('keeps every SQL statement of a module in its queries.ts', () => {
    const misplaced = files
      .filter((path) => moduleOf(path) !== null && !path.endsWith('/queries.ts') && !path.includes('/queries/'))
      .flatMap((path) => sqlStatements(readFileSync(path, 'utf8')).map((sql) => `${rel(path)}: ${sql.trim().slice(0, 80)}`));
    expect(misplaced).toEqual([]);
  });

  it('scopes every statement of a module by marketplace and mode, or by workspace', () => {
    const unscoped: string[] = [];
    for (const path of files.filter((p) => moduleOf(p) !== null)) {
      for (const sql of sqlStatements(readFileSync(path, 'utf8'))) {
        const tables = tablesOf(sql);
        const workspaceLevel = tables.length > 0 && tables.every((table) => WORKSPACE_TABLES.includes(table));
        const scoped = workspaceLevel || (/\bmarketplace_id\b/.test(sql) && /\bmode\b/.test(sql));
        const allowed = ALLOWED_UNSCOPED.some((entry) => rel(path) === entry.file && sql.includes(entry.contains));
        if (!scoped && !allowed) unscoped.push(`${rel(path)}: ${sql.trim().replace(/\s+/g, ' ').slice(0, 120)}`);
      }
    }
    expect(unscoped).toEqual([]);
  });

  it("lets no module import another module's queries", () => {
    const crossings: string[] = [];
    for (const path of files) {
      const owner = moduleOf(path);
      if (owner === null) continue;
      for (const match of readFileSync(path, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)) {
        const target = resolve(dirname(path), match[1] ?? '');
        const targetModule = moduleOf(target.replace(/\.js$/, '.ts'));
        if (targetModule !== null && targetModule !== owner && /\/queries(\.js)?$|\/queries\//.test(target)) {
          crossings.push(`${rel(path)} imports ${match[1]}`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });

  it('reads process.env only in the configuration', () => {
    const readers = files
      .filter((path) => rel(path) !== 'src/config.ts')
      .filter((path) => /process\.env\b/.test(readFileSync(path, 'utf8')))
      .map(rel);
    expect(readers).toEqual([]);
  });

  it('finds what it checks (the rules above are not vacuous)', () => {
    const queryFiles = files.filter((path) => path.endsWith('/queries.ts'));
    expect(queryFiles.length).toBeGreaterThan(5);
    const statements = queryFiles.flatMap((path) => sqlStatements(readFileSync(path, 'utf8')));
    expect(statements.length).toBeGreaterThan(30);
  });
});
