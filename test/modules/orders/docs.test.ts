// docs/orders.md shows the order and dispute tables as diagrams generated from the tables: this
// test fails when a table changed and the page did not. `UPDATE_DOCS=1` rewrites the diagrams.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { toMarkdownTable, toMermaid, type Machine } from '../../../src/domain/state-machine.js';
import { DISPUTE_MACHINE } from '../../../src/modules/orders/dispute-machine.js';
import { ORDER_MACHINE } from '../../../src/modules/orders/machine.js';

const DOC = new URL('../../../docs/orders.md', import.meta.url);
const BLOCKS: Array<[string, Machine<string, string, string>]> = [
  ['order-machine', ORDER_MACHINE],
  ['dispute-machine', DISPUTE_MACHINE],
];

it('docs/orders.md holds the diagrams and tables generated from the order and dispute tables', () => {
  let text = readFileSync(DOC, 'utf8');
  for (const [name, machine] of BLOCKS) {
    const start = `<!-- generated:${name}:start -->`;
    const end = `<!-- generated:${name}:end -->`;
    const generated = `${start}\n\`\`\`mermaid\n${toMermaid(machine)}\n\`\`\`\n\n${toMarkdownTable(machine)}\n${end}`;
    const at = text.indexOf(start);
    const until = text.indexOf(end) + end.length;
    expect(at, name).toBeGreaterThanOrEqual(0);
    text = text.slice(0, at) + generated + text.slice(until);
  }
  if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, text);
  expect(readFileSync(DOC, 'utf8')).toBe(text);
});
