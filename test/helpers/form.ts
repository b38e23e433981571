// Reads an application/x-www-form-urlencoded body the way Stripe does: bracketed keys nest
// (`line_items[0][price_data][currency]=usd`), and a level whose keys are all 0, 1, 2… is an array.
// Values stay text, as Stripe receives them.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
type Node = { [key: string]: Node | string };

export function parseForm(body: string): Record<string, FormValue> {
  const root: Node = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw new Error(`Unreadable form key: ${key}`);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node = root;
    for (const segment of path.slice(0, -1)) {
      const next = node[segment];
      if (typeof next === 'string') throw new Error(`Form key ${key} nests under a value`);
      node = next ?? (node[segment] = {});
    }
    node[path[path.length - 1]!] = value;
  }
  return arraysOf(root) as Record<string, FormValue>;
}

function arraysOf(node: Node | string): FormValue {
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  const entries = keys.map((k) => [k, arraysOf(node[k]!)] as const);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}
