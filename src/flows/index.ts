// The flows the modules' routes start, handed to them by the composition root with the services
// (Services.flows, src/contracts/wiring.ts): a module cannot import a flow. The routes and timers
// the flows declare themselves are in manifests.ts.
import { decideDisputeFlow, moveOrderFlow } from './move-order.js';

export const FLOWS = { moveOrder: moveOrderFlow, decideDispute: decideDisputeFlow } as const;

declare module '../contracts/wiring.js' {
  interface Flows {
    /** An order's move asked over the API (move-order.ts). */
    readonly moveOrder: typeof moveOrderFlow;
    /** The platform's decision of a dispute (move-order.ts). */
    readonly decideDispute: typeof decideDisputeFlow;
  }
}
