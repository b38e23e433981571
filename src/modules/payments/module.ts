// The payments module's manifest (src/contracts/wiring.ts): payments, refunds, releases and card
// disputes, the processor-call job and the ledger invariants job.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { PAYMENT_ID_PREFIXES, PAYMENT_EVENT_TYPES } from './declarations.js';
import { runDueJobs } from '../../workers/engine.js';
import { processorCallJob } from './calls.js';
import { ledgerInvariantsJob } from './ledger-invariants.js';
import { RELEASE_TIMER, releaseTimer } from './operations.js';
import { expandablePayment, expandableRefund } from './expandable.js';
import { paymentApiRoutes } from './routes/index.js';

export const paymentsModule: ModuleManifest = {
  name: 'payments',
  tables: ['payments', 'refunds', 'card_disputes', 'processor_event_receipts'],
  idPrefixes: PAYMENT_ID_PREFIXES,
  eventTypes: PAYMENT_EVENT_TYPES,
  routes: { secret: paymentApiRoutes },
  timers: { [RELEASE_TIMER]: releaseTimer },
  jobKinds: [processorCallJob],
  periodic: [ledgerInvariantsJob],
  clockAdvanceHooks: [
    // Processor calls the advance's timers asked for (the refund of an expired order, a release
    // after its delay) are made before the answer, so the simulated processor has settled them by then.
    { name: 'processor_calls', run: async (deps) => void (await runDueJobs(deps, processorCallJob, { max: 100 })) },
  ],
  expandable: [expandablePayment, expandableRefund],
  tags: [
    { name: 'Payments', description: "An order's payment through the processor: collected on the platform, the seller's share held and released after completion (docs/payments.md).", rank: 110 },
    { name: 'Refunds', description: 'Refunds of a payment, with the transfer reversed in proportion after release.', rank: 120 },
    { name: 'Card disputes', description: 'Chargebacks the payment processor reports.', rank: 130 },
  ],
};
