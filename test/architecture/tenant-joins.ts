// No statement joins across tenants (docs/deployment.md, "Sharding"): two tenant tables that one
// statement relates (an ON or WHERE equality between their columns, directly or through a shared
// parameter, a USING list, a row comparison, a correlated subquery) must also be related on both
// columns of the tenant key, marketplace_id to marketplace_id and mode to mode, directly or through
// the same parameter ($1 on both sides pins both to one tenant). On a database sharded by tenant
// such a join stays on one node; without it, it would pair rows of two shards.
//
// The reading is of the SQL text, as test/architecture/tables.ts reads it (strings and comments
// cut): every table reference with its alias and the parenthesis group it sits in; every `=`
// whose two sides are plain terms (alias.column, column, $n, or row values of them) outside SET
// lists; an unqualified column belongs to the one table of the nearest group that names tables.
// A CTE or subquery is not a table: a join with one is not checked (its own statement is); nor is
// a row compared by IN (SELECT …) rather than by `=`.
import { stripSql } from './tables.js';

interface Item {
  /** Position of the table's name among the tokens: the item's identity. */
  at: number;
  name: string;
  alias: string;
  group: number;
  /** A table of the schema (not a CTE's name). */
  table: boolean;
  /** An INSERT's target: its columns are not visible to the statement's unqualified names. */
  target: boolean;
}

const NOT_AN_ALIAS = new Set([
  'where', 'join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'lateral', 'on', 'using', 'order', 'group',
  'having', 'limit', 'offset', 'for', 'set', 'returning', 'union', 'except', 'intersect', 'window', 'values',
  'select', 'default', 'as', 'do', 'tablesample', 'only', 'fetch', 'and', 'or', 'then', 'when', 'else', 'end',
]);
const ENDS_FROM = new Set(['where', 'group', 'order', 'having', 'limit', 'offset', 'returning', 'window', 'union', 'except', 'intersect', 'for', 'values', 'select', 'set', 'do']);
const NOT_A_COLUMN = new Set([
  'any', 'all', 'some', 'true', 'false', 'null', 'not', 'select', 'exists', 'case', 'array', 'row', 'and', 'or', 'when', 'then',
  'else', 'end', 'where', 'on', 'is', 'in', 'like', 'between', 'distinct', 'current_timestamp', 'now', 'default', 'interval',
]);
/** A neighbour that makes an operand part of a larger expression (a + b = c is no column equality). */
const EXPRESSION = new Set(['+', '-', '*', '/', '%', '||', '::', '.', '[', '->', '->>']);

const isWord = (token: string | undefined): token is string => token !== undefined && /^[a-z_][a-z0-9_$]*$/.test(token);
const isParam = (token: string | undefined): token is string => token !== undefined && /^\$\d+$/.test(token);
/** A word before `(` that names a function, not a keyword before a parenthesized row (`WHERE (a, b) = …`). */
const ROW_BEFORE = new Set(['where', 'on', 'and', 'or', 'not', 'when', 'then', 'else', 'in', 'by', 'select', 'set', 'having']);
const isFunctionName = (token: string | undefined): boolean => isWord(token) && !ROW_BEFORE.has(token);

type Term = { kind: 'param'; name: string } | { kind: 'column'; alias: string | null; column: string; at: number };

/** The pairs of tenant tables one SQL text joins without both columns of the tenant key, one sentence each; [] when none. */
export function crossTenantJoins(sqlText: string, tenantTables: ReadonlySet<string>, knownTables: ReadonlySet<string>): string[] {
  return tenantJoins(sqlText, tenantTables, knownTables)
    .filter((join) => join.missing.length > 0)
    .map((join) => `${join.pair} are joined without matching ${join.missing.join(' and ')}`);
}

export interface TenantJoin {
  /** `orders o and listings l` (the alias when it differs from the table's name). */
  pair: string;
  /** The tenant key's columns the statement does not match between them. */
  missing: string[];
}

/** Every pair of tenant tables one SQL text relates, with the tenant key's columns it does not match. */
export function tenantJoins(sqlText: string, tenantTables: ReadonlySet<string>, knownTables: ReadonlySet<string>): TenantJoin[] {
  const sql = stripSql(sqlText);
  const tokens = (sql.match(/[A-Za-z_][A-Za-z0-9_$]*|\$\d+|''|\d+(?:\.\d+)?|::|<>|!=|<=|>=|\|\||->>|->|[(),;.=<>*+\-/%[\]]|\S/g) ?? []).map((t) => t.toLowerCase());
  const ctes = new Set<string>();
  for (const m of sql.matchAll(/\b(\w+)\s*(?:\([\w\s,]*\)\s*)?AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/gi)) ctes.add(m[1]!.toLowerCase());

  // Parenthesis groups: group[i] is the index of the '(' that encloses token i (-1: none).
  const group: number[] = [];
  const parent = new Map<number, number>();
  const close = new Map<number, number>();
  const stack: number[] = [];
  tokens.forEach((token, i) => {
    if (token === ')') {
      const open = stack.pop();
      if (open !== undefined) close.set(open, i);
    }
    group[i] = stack.at(-1) ?? -1;
    if (token === '(') {
      parent.set(i, group[i]!);
      stack.push(i);
    }
  });
  const ancestors = (g: number): number[] => {
    const chain = [g];
    while (chain.at(-1)! !== -1) chain.push(parent.get(chain.at(-1)!) ?? -1);
    return chain;
  };
  const openOf = (closeAt: number): number | undefined => [...close].find(([, c]) => c === closeAt)?.[0];

  // Table references, with their aliases; USING lists; SET lists.
  const items: Item[] = [];
  const usingPairs: Array<{ left: Item; right: Item; columns: string[] }> = [];
  const inSet = new Set<number>();
  const inFrom = new Set<number>();
  const take = (index: number, target = false): void => {
    let at = index;
    if (tokens[at] === 'only' || tokens[at] === 'lateral') at++;
    if (tokens[at + 1] === '.' && isWord(tokens[at + 2])) at += 2;
    const name = tokens[at];
    if (!isWord(name) || NOT_AN_ALIAS.has(name)) return;
    let next = at + 1;
    if (tokens[next] === 'as') next++;
    let alias = name;
    if (isWord(tokens[next]) && !NOT_AN_ALIAS.has(tokens[next]!)) {
      alias = tokens[next]!;
      next++;
    }
    const item: Item = { at, name, alias, group: group[at]!, table: knownTables.has(name) && !ctes.has(name), target };
    if (tokens[next] === 'using' && tokens[next + 1] === '(') {
      const left = [...items].reverse().find((other) => other.group === item.group && !other.target);
      const end = close.get(next + 1) ?? next + 1;
      const columns = tokens.slice(next + 2, end).filter((token) => isWord(token));
      if (left) usingPairs.push({ left, right: item, columns });
    }
    items.push(item);
  };
  let setGroup: number | null = null;
  tokens.forEach((token, i) => {
    const before = tokens[i - 1];
    const g = group[i]!;
    // A SET list ends at FROM, WHERE or RETURNING of its level, or when its parenthesis closes.
    if (setGroup !== null && (!ancestors(g).includes(setGroup) || (g === setGroup && ['from', 'where', 'returning'].includes(token)))) setGroup = null;
    if (setGroup !== null && g === setGroup && token === '=') inSet.add(i);
    if (token === 'set') setGroup = g;
    if (ENDS_FROM.has(token)) inFrom.delete(g);
    if (token === 'into' && (before === 'insert' || before === 'merge')) take(i + 1, true);
    else if (token === 'update' && !['for', 'key', 'do', 'on'].includes(before ?? '')) take(i + 1);
    else if (token === 'join') {
      inFrom.add(g);
      take(i + 1);
    } else if (token === 'from' && before !== 'distinct') {
      inFrom.add(g);
      take(i + 1);
    } else if (token === 'using' && tokens[i + 1] !== '(') {
      inFrom.add(g);
      take(i + 1);
    } else if (token === ',' && inFrom.has(g)) take(i + 1);
  });

  // Terms and equalities.
  const termAt = (start: number, end: number): Term | null => {
    const span = tokens.slice(start, end + 1);
    if (span.length === 1 && isParam(span[0])) return { kind: 'param', name: span[0] };
    if (span.length === 1 && isWord(span[0]) && !NOT_A_COLUMN.has(span[0])) return { kind: 'column', alias: null, column: span[0], at: start };
    if (span.length === 3 && isWord(span[0]) && span[1] === '.' && isWord(span[2])) return { kind: 'column', alias: span[0], column: span[2], at: start };
    return null;
  };
  /** Skips a cast (`::text`, `::text[]`) ending at `end`, backwards. */
  const beforeCast = (end: number): number => {
    let at = end;
    if (tokens[at] === ']' && tokens[at - 1] === '[') at -= 2;
    if (isWord(tokens[at]) && tokens[at - 1] === '::') return at - 2;
    return end;
  };
  const afterCast = (end: number): number => {
    let at = end;
    if (tokens[at + 1] === '::' && isWord(tokens[at + 2])) {
      at += 2;
      if (tokens[at + 1] === '[' && tokens[at + 2] === ']') at += 2;
    }
    return at;
  };
  /** The operand's plain terms (one, or each of a row), or null when it is an expression. */
  const split = (start: number, end: number): Term[] | null => {
    if (tokens[start] === '(' && close.get(start) === end) {
      const terms: Term[] = [];
      let from = start + 1;
      for (let at = start + 1; at <= end; at++) {
        if ((tokens[at] === ',' && group[at] === start) || at === end) {
          const term = termAt(from, at - 1);
          if (term === null) return null;
          terms.push(term);
          from = at + 1;
        }
      }
      return terms;
    }
    const term = termAt(start, end);
    return term === null ? null : [term];
  };

  const leftOf = (i: number): [number, number] | null => {
    const end = beforeCast(i - 1);
    if (tokens[end] === ')') {
      const open = openOf(end);
      if (open === undefined || isFunctionName(tokens[open - 1])) return null; // a function's call
      return [open, end];
    }
    const start = tokens[end - 1] === '.' ? end - 2 : end;
    return [start, end];
  };
  const rightOf = (i: number): [number, number] | null => {
    const start = i + 1;
    if (tokens[start] === '(') {
      const end = close.get(start);
      return end === undefined ? null : [start, end];
    }
    if (tokens[start + 1] === '(' && isFunctionName(tokens[start])) return null; // a function's call
    return [start, tokens[start + 1] === '.' ? start + 2 : start];
  };

  const parentOf = new Map<string, string>();
  const find = (key: string): string => {
    let root = key;
    while (parentOf.has(root) && parentOf.get(root) !== root) root = parentOf.get(root)!;
    return root;
  };
  const union = (a: string, b: string): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parentOf.set(ra, rb);
  };
  const keyOfItem = (item: Item, column: string) => `#${item.at}.${column}`;
  const keyOf = (term: Term): string => {
    if (term.kind === 'param') return term.name;
    const chain = ancestors(group[term.at]!);
    if (term.alias !== null) {
      const named = items.filter((item) => item.alias === term.alias);
      for (const g of chain) {
        const here = named.filter((item) => item.group === g);
        if (here.length > 0) return keyOfItem(here.at(-1)!, term.column);
      }
      const earlier = named.filter((item) => item.at < term.at);
      const item = earlier.at(-1) ?? named[0];
      return item ? keyOfItem(item, term.column) : `~${term.alias}.${term.column}`;
    }
    for (const g of chain) {
      const here = items.filter((item) => item.group === g && !item.target);
      if (here.length === 1) return keyOfItem(here[0]!, term.column);
      if (here.length > 1) return `?${g}.${term.column}`;
    }
    return `?${term.column}`;
  };

  const keysOf = new Map<number, Set<string>>();
  const note = (key: string): void => {
    const m = /^#(\d+)\./.exec(key);
    if (!m) return;
    const at = Number(m[1]);
    keysOf.set(at, (keysOf.get(at) ?? new Set()).add(key));
  };
  const equate = (a: Term, b: Term): void => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    note(ka);
    note(kb);
    union(ka, kb);
  };

  tokens.forEach((token, i) => {
    if (token !== '=' || inSet.has(i)) return;
    const left = leftOf(i);
    const right = rightOf(i);
    if (left === null || right === null) return;
    const rightEnd = afterCast(right[1]);
    if (EXPRESSION.has(tokens[left[0] - 1] ?? '') || EXPRESSION.has(tokens[rightEnd + 1] ?? '') || tokens[rightEnd + 1] === '(') return;
    const a = split(left[0], left[1]);
    const b = split(right[0], right[1]);
    if (a === null || b === null || a.length !== b.length) return;
    a.forEach((term, n) => equate(term, b[n]!));
  });
  for (const { left, right, columns } of usingPairs) {
    for (const column of columns) {
      note(keyOfItem(left, column));
      note(keyOfItem(right, column));
      union(keyOfItem(left, column), keyOfItem(right, column));
    }
  }

  // Every pair of tenant tables related by some equality must be related on both tenant columns.
  const tenants = items.filter((item) => item.table && tenantTables.has(item.name));
  const found: TenantJoin[] = [];
  for (let x = 0; x < tenants.length; x++) {
    for (let y = x + 1; y < tenants.length; y++) {
      const a = tenants[x]!;
      const b = tenants[y]!;
      const classesOfA = new Set([...(keysOf.get(a.at) ?? [])].map(find));
      const related = [...(keysOf.get(b.at) ?? [])].some((key) => classesOfA.has(find(key)));
      if (!related) continue;
      const missing = ['marketplace_id', 'mode'].filter((column) => find(keyOfItem(a, column)) !== find(keyOfItem(b, column)));
      const label = (item: Item) => (item.alias === item.name ? item.name : `${item.name} ${item.alias}`);
      found.push({ pair: `${label(a)} and ${label(b)}`, missing });
    }
  }
  return found;
}

export interface AllowedJoin {
  file: string;
  /** Text of the SQL literal that makes the join. */
  contains: string;
  /** The pair as crossTenantJoins names it (`webhook_deliveries d and webhook_endpoints e`). */
  joins: string;
  reason: string;
}

/** Statements of src/ that relate tenant tables without the tenant key, and why. Keep it short. */
export const ALLOWED_CROSS_TENANT_JOINS: readonly AllowedJoin[] = [
  {
    file: 'src/modules/webhooks/queries.ts',
    contains: 'UPDATE webhook_endpoints e SET pending_full = c.full',
    joins: 'webhook_deliveries d and webhook_endpoints e',
    reason:
      "the periodic check of every endpoint's bound counts its pending deliveries by endpoint id, which walks webhook_deliveries_endpoint_due_idx; with the tenant columns the planner takes webhook_deliveries_pending_event_key instead, measured 10 times slower at 1,000 pending. An endpoint's deliveries all carry its tenant. The check spans tenants by design: on Citus it runs per shard (docs/deployment.md, \"Sharding\")",
  },
  {
    file: 'src/modules/webhooks/queries.ts',
    contains: 'SELECT 1 FROM webhook_deliveries o',
    joins: 'webhook_deliveries d and webhook_deliveries o',
    reason:
      "the dispatcher's per_object check pairs a delivery with the older pending ones of its endpoint and object, answered by webhook_deliveries_object_pending_idx alone (migrations/0028); an endpoint's deliveries all carry its tenant. The claim spans tenants by design: on Citus it runs per shard (docs/deployment.md, \"Sharding\")",
  },
];
