// Which tables each folder of src/ reads and writes, found in its SQL text: every string and
// template literal of a .ts file that reads as SQL (an upper-case SELECT, INSERT INTO, UPDATE,
// DELETE FROM, FROM, JOIN, TRUNCATE, LOCK TABLE or CREATE TABLE) is cut into words, and the words
// in a table's place (after FROM, JOIN, USING, INTO, UPDATE, DELETE FROM, TRUNCATE, LOCK TABLE, and
// after a comma of a FROM list) that name a table of the migrations are kept. A CTE's name is never
// a table; an alias is skipped. A `${…}` of a template is read as an opaque word (the repository
// never interpolates a table's name); the fragments it interpolates are literals of their own.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { toPosix, walk } from './graph.js';

export type Access = 'read' | 'write';

/** One table named by one SQL literal of one file. */
export interface TableUse {
  file: string;
  /** The folder that owns the file's statements: `modules/<name>` or a folder of src/ (`outbox`, `db`…). */
  folder: string;
  table: string;
  access: Access;
  /** 1-based line of the literal. */
  line: number;
}

/** The tables the migrations leave behind (created and not dropped), plus those src/ creates itself. */
export function migratedTables(root: string): string[] {
  const dir = join(root, 'migrations');
  const files = walk(dir, (path) => /\d{4}_[a-z0-9_]+\.sql$/.test(path));
  const created = new Set<string>();
  const texts = [...files.map((file) => readFileSync(file, 'utf8')), ...sqlLiterals(root).map((literal) => literal.text)];
  for (const text of texts) {
    const sql = stripSql(text);
    for (const m of sql.matchAll(/\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/gi)) created.add(m[1]!.toLowerCase());
    for (const m of sql.matchAll(/\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)\s+RENAME\s+TO\s+(\w+)/gi)) {
      created.delete(m[1]!.toLowerCase());
      created.add(m[2]!.toLowerCase());
    }
    for (const m of sql.matchAll(/\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)/gi)) created.delete(m[1]!.toLowerCase());
  }
  return [...created].sort();
}

/** The folder whose statements a file holds: `modules/orders` for src/modules/orders/**, else src/'s first folder. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'modules') return `modules/${parts[2]}`;
  return parts.length === 2 ? 'src' : parts[1]!;
}

interface Literal {
  file: string;
  line: number;
  text: string;
}

const LOOKS_LIKE_SQL = /\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM|FROM|JOIN|TRUNCATE|LOCK TABLE|CREATE TABLE)\b/;

/** Every string or template literal of src/**.ts that reads as SQL (upper-case keywords). */
export function sqlLiterals(root: string): Literal[] {
  const files = walk(join(root, 'src'), (path) => path.endsWith('.ts'));
  const literals: Literal[] = [];
  for (const path of files) {
    const file = toPosix(relative(root, path));
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      let text: string | null = null;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
      else if (ts.isTemplateExpression(node)) {
        text = node.head.text + node.templateSpans.map((span) => ` __interpolated__ ${span.literal.text}`).join('');
      }
      if (text !== null && LOOKS_LIKE_SQL.test(text)) {
        literals.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, text });
      }
      // A template's spans hold expressions that may be literals of their own (nested templates).
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return literals;
}

/** SQL without its comments and the contents of its quoted strings. */
export function stripSql(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "''")
    .replace(/'(?:[^']|'')*'/g, "''");
}

const NOT_AN_ALIAS = new Set(
  [
    'where', 'join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'lateral', 'on', 'using', 'order', 'group',
    'having', 'limit', 'offset', 'for', 'set', 'returning', 'union', 'except', 'intersect', 'window', 'values',
    'select', 'default', 'as', 'do', 'tablesample', 'only', 'fetch', 'and', 'or', 'then', 'when', 'else', 'end',
  ],
);

/** The tables one SQL text names, each with read or write, among `known` (CTE names excluded). */
export function tablesOfSql(sqlText: string, known: ReadonlySet<string>): { table: string; access: Access }[] {
  const sql = stripSql(sqlText);
  const words = sql.match(/[A-Za-z_][A-Za-z0-9_$]*|\$\d+|[(),;.]/g) ?? [];
  const lower = words.map((word) => word.toLowerCase());
  // A CTE: `name AS (`, `name AS MATERIALIZED (`, `name(cols) AS (`.
  const ctes = new Set<string>();
  for (const m of sql.matchAll(/\b(\w+)\s*(?:\([\w\s,]*\)\s*)?AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/gi)) ctes.add(m[1]!.toLowerCase());
  const found: { table: string; access: Access }[] = [];
  const take = (index: number, access: Access): number => {
    // schema-qualified (public.orders): the name after the dot.
    let at = index;
    if (lower[at + 1] === '.' && lower[at + 2] !== undefined) at += 2;
    const name = lower[at];
    if (name !== undefined && known.has(name) && !ctes.has(name)) found.push({ table: name, access });
    return at;
  };
  for (let i = 0; i < lower.length; i++) {
    const word = lower[i];
    const before = lower[i - 1];
    if (word === 'into' && (before === 'insert' || before === 'merge')) take(i + 1, 'write');
    else if (word === 'update' && before !== 'for' && before !== 'key' && before !== 'do' && before !== 'on') take(i + 1, 'write');
    else if (word === 'truncate') take(lower[i + 1] === 'table' ? i + 2 : i + 1, 'write');
    else if (word === 'table' && before === 'lock') take(i + 1, 'write');
    else if (word === 'join') take(lower[i + 1] === 'lateral' ? i + 2 : i + 1, 'read');
    else if (word === 'from' || word === 'using') {
      if (word === 'from' && before === 'delete') {
        take(i + 1, 'write');
        continue;
      }
      if (word === 'from' && before === 'distinct') continue;
      // A FROM list: table [AS] [alias] {, table [AS] [alias]}.
      let at = i + 1;
      for (;;) {
        at = take(at, 'read') + 1;
        if (lower[at] === 'as') at++;
        if (lower[at] !== undefined && /^[a-z_]/.test(lower[at]!) && !NOT_AN_ALIAS.has(lower[at]!)) at++;
        if (lower[at] !== ',') break;
        at++;
      }
    }
  }
  return found;
}

/** Every table use of src/: one per (literal, table, access). */
export function tableUses(root: string, tables: readonly string[]): TableUse[] {
  const known = new Set(tables);
  const uses: TableUse[] = [];
  for (const literal of sqlLiterals(root)) {
    const seen = new Set<string>();
    for (const { table, access } of tablesOfSql(literal.text, known)) {
      const key = `${table} ${access}`;
      if (seen.has(key)) continue;
      seen.add(key);
      uses.push({ file: literal.file, folder: folderOf(literal.file), table, access, line: literal.line });
    }
  }
  return uses;
}
