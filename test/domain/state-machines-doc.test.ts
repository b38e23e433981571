// docs/state-machines.md is generated from the tables: this test fails when a table changed and
// the document did not. `UPDATE_DOCS=1 npx vitest run test/domain/state-machines-doc.test.ts`
// rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toMarkdownTable, toMermaid, type Machine } from '../../src/domain/state-machine.js';
import { CHECKOUT_MACHINE } from '../../src/modules/checkouts/status.js';
import { LISTING_MACHINE } from '../../src/modules/listings/status.js';
import { DISPUTE_MACHINE } from '../../src/modules/orders/dispute-machine.js';
import { ORDER_MACHINE } from '../../src/modules/orders/machine.js';
import { MEDIA_MACHINE } from '../../src/modules/media/status.js';
import { FLAG_MACHINE } from '../../src/modules/moderation/flag-status.js';
import { PAYMENT_MACHINE, REFUND_MACHINE, RELEASE_MACHINE } from '../../src/modules/payments/machines.js';
import { PAYOUTS_MACHINE } from '../../src/modules/sellers/payouts.js';
import { SUSPENSION_MACHINE } from '../../src/modules/sellers/suspension.js';
import { SELLER_VERIFICATION_MACHINE } from '../../src/modules/sellers/verification-state.js';
import { VERIFICATION_MACHINE } from '../../src/modules/verifications/status.js';

const DOC = new URL('../../docs/state-machines.md', import.meta.url);

const MACHINES: Array<{ title: string; file: string; machine: Machine<string, string, string> }> = [
  { title: 'Listing status', file: 'src/modules/listings/status.ts', machine: LISTING_MACHINE },
  { title: 'Seller status (suspension)', file: 'src/modules/sellers/suspension.ts', machine: SUSPENSION_MACHINE },
  { title: "Seller's verification state", file: 'src/modules/sellers/verification-state.ts', machine: SELLER_VERIFICATION_MACHINE },
  { title: 'Verification status', file: 'src/modules/verifications/status.ts', machine: VERIFICATION_MACHINE },
  { title: "Seller's payouts state", file: 'src/modules/sellers/payouts.ts', machine: PAYOUTS_MACHINE },
  { title: 'Order state', file: 'src/modules/orders/machine.ts', machine: ORDER_MACHINE },
  { title: 'Checkout status', file: 'src/modules/checkouts/status.ts', machine: CHECKOUT_MACHINE },
  { title: 'Dispute status', file: 'src/modules/orders/dispute-machine.ts', machine: DISPUTE_MACHINE },
  { title: 'Payment status', file: 'src/modules/payments/machines.ts', machine: PAYMENT_MACHINE },
  { title: 'Release status (none is null: not paid yet)', file: 'src/modules/payments/machines.ts', machine: RELEASE_MACHINE },
  { title: 'Refund status', file: 'src/modules/payments/machines.ts', machine: REFUND_MACHINE },
  { title: 'Media status', file: 'src/modules/media/status.ts', machine: MEDIA_MACHINE },
  { title: 'Flag status', file: 'src/modules/moderation/flag-status.ts', machine: FLAG_MACHINE },
];

function render(): string {
  const parts = [
    '# State machines',
    '',
    'Generated from the tables by `test/domain/state-machines-doc.test.ts`; do not edit by hand. After',
    'changing a table, run `UPDATE_DOCS=1 npx vitest run test/domain/state-machines-doc.test.ts`. How',
    'the tables are read: [architecture.md](architecture.md#state-machines). Edges read',
    '`operation (who)`; an operation the table does not allow from a state answers 409 `invalid_state`.',
  ];
  for (const { title, file, machine } of MACHINES) {
    parts.push('', `## ${title}`, '', `\`${file}\``, '', '```mermaid', toMermaid(machine), '```', '', toMarkdownTable(machine));
  }
  return `${parts.join('\n')}\n`;
}

describe('docs/state-machines.md', () => {
  it('holds the diagram and the table of every machine, as generated from the tables', () => {
    const expected = render();
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, expected);
    expect(readFileSync(DOC, 'utf8')).toBe(expected);
  });
});
