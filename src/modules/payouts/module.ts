// The payouts module's manifest (src/contracts/wiring.ts): schedules, payouts and their lines, the
// send job and its clock-advance hook. The run (a timer per mode) and POST /v1/payouts are flows'
// (src/flows/pay-out.ts, src/flows/manifests.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { runDueJobs } from '../../workers/engine.js';
import { PAYOUT_ERROR_CODES, PAYOUT_EVENT_TYPES, PAYOUT_ID_PREFIXES } from './declarations.js';
import { payoutSendJob } from './job.js';
import { payoutApiRoutes } from './routes/index.js';

export const payoutsModule: ModuleManifest = {
  name: 'payouts',
  tables: ['seller_payout_schedules', 'payouts', 'payout_lines'],
  routes: { secret: payoutApiRoutes },
  jobKinds: [payoutSendJob],
  clockAdvanceHooks: [
    // Payouts the advance's run made are sent before the answer, so the simulated processor has paid them by then.
    { name: 'payouts_send', run: async (deps) => void (await runDueJobs(deps, payoutSendJob, { max: 100 })) },
  ],
  errorCodes: PAYOUT_ERROR_CODES,
  idPrefixes: PAYOUT_ID_PREFIXES,
  eventTypes: PAYOUT_EVENT_TYPES,
  tags: [{ name: 'Payouts', description: "Sellers paid on a schedule from their available balance: schedules, payouts and their lines (docs/payouts.md).", rank: 125 }],
};
