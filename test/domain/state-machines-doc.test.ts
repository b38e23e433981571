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
import { EMAIL_MACHINE } from '../../src/modules/emails/machine.js';
import { CARD_DISPUTE_MACHINE } from '../../src/modules/payments/card-dispute-machine.js';
import { PAYMENT_MACHINE, REFUND_MACHINE, RELEASE_MACHINE } from '../../src/modules/payments/machines.js';
import { PAYOUT_MACHINE } from '../../src/modules/payouts/machine.js';
import { REPORT_MACHINE } from '../../src/modules/reports/machine.js';
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
  { title: 'Payout status', file: 'src/modules/payouts/machine.ts', machine: PAYOUT_MACHINE },
  { title: 'Card dispute phase (open or closed: the processor keeps the status)', file: 'src/modules/payments/card-dispute-machine.ts', machine: CARD_DISPUTE_MACHINE },
  { title: 'Media status', file: 'src/modules/media/status.ts', machine: MEDIA_MACHINE },
  { title: 'Flag status', file: 'src/modules/moderation/flag-status.ts', machine: FLAG_MACHINE },
  { title: 'Report status', file: 'src/modules/reports/machine.ts', machine: REPORT_MACHINE },
  { title: 'Email status (the outbox)', file: 'src/modules/emails/machine.ts', machine: EMAIL_MACHINE },
];

// Resources with states that have no table yet, and why: written out until their table lands.
const WITHOUT_TABLE = [
  '## Webhook endpoints and deliveries: no machine table, by design',
  '',
  'Their moves are made by set-based statements over many rows at once (the fan-out, the dispatcher\'s',
  'claim and batched settle, an endpoint\'s disable failing its pending deliveries), where a row-by-row',
  'table lookup has no place; neither emits events, and a delivery\'s next attempt is its row\'s',
  '`next_attempt_at`, not a timer. Their moves, as the webhooks tests check them:',
  '',
  '| Resource | From | Operation | Who | To | Side effects |',
  '|---|---|---|---|---|---|',
  '| endpoint | enabled | `disable` | platform (PATCH `status=disabled`, or every delivery failed for 3 days) | disabled | its pending deliveries fail with `endpoint_disabled`; the automatic one sets `disabled_reason` and emails the members |',
  '| endpoint | disabled | `enable` | platform (PATCH `status=enabled`) | enabled | clears `disabled_reason` and `failing_since` |',
  '| delivery | (new) | fan-out | platform | pending, or failed with `pending_limit_exceeded` at the endpoint\'s bound | |',
  '| delivery | pending | `succeed` | platform (the dispatcher: a 2xx) | succeeded | |',
  '| delivery | pending | `retry` | platform (the dispatcher: attempts left) | pending | |',
  '| delivery | pending | `fail` | platform (the last attempt, or the endpoint disabled) | failed | |',
  '| delivery | succeeded, failed | `replay` | platform (only to an enabled endpoint) | (a new pending delivery; this one stays) | |',
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
  parts.push('', ...WITHOUT_TABLE);
  return `${parts.join('\n')}\n`;
}

describe('docs/state-machines.md', () => {
  it('holds the diagram and the table of every machine, as generated from the tables', () => {
    const expected = render();
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, expected);
    expect(readFileSync(DOC, 'utf8')).toBe(expected);
  });
});
