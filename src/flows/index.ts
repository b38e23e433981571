// The flows the modules' routes start, handed to them by the composition root with the services
// (Services.flows, src/contracts/wiring.ts): a module cannot import a flow. The routes and timers
// the flows declare themselves are in manifests.ts.
import { decideDisputeFlow, moveOrderFlow } from './move-order.js';
import { enableSellerPayouts } from './enable-seller-payouts.js';
import { receiveProcessorReports } from './receive-processor-reports.js';
import { settleProcessorReport } from './settle-processor-report.js';

export const FLOWS = { moveOrder: moveOrderFlow, decideDispute: decideDisputeFlow, receiveProcessorReports, settleProcessorReport, enableSellerPayouts } as const;

declare module '../contracts/wiring.js' {
  interface Flows {
    /** An order's move asked over the API (move-order.ts). */
    readonly moveOrder: typeof moveOrderFlow;
    /** The platform's decision of a dispute (move-order.ts). */
    readonly decideDispute: typeof decideDisputeFlow;
    /** A processor's event, received by the processor-webhooks module (receive-processor-reports.ts). */
    readonly receiveProcessorReports: typeof receiveProcessorReports;
    /** One processor report in the caller's transaction: the simulated processor's test helpers (settle-processor-report.ts). */
    readonly settleProcessorReport: typeof settleProcessorReport;
    /** A seller's payouts enabled, then their failed releases retried: the simulated onboarding page (enable-seller-payouts.ts). */
    readonly enableSellerPayouts: typeof enableSellerPayouts;
  }
}
