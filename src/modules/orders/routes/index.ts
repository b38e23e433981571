// The order and dispute operations (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { listOrdersRoute } from './list.js';
import { retrieveOrderRoute } from './retrieve.js';
import { listOrderEventsRoute } from './order-events.js';
import { claimOrderRoute } from './claim.js';
import { confirmOrderRoute } from './confirm.js';
import { cancelOrderRoute } from './cancel.js';
import { proposeCancellationRoute } from './propose-cancellation.js';
import { acceptCancellationRoute } from './accept-cancellation.js';
import { declineCancellationRoute } from './decline-cancellation.js';
import { disputeOrderRoute } from './dispute.js';
import { listDisputesRoute } from './list-disputes.js';
import { retrieveDisputeRoute } from './retrieve-dispute.js';
import { addDisputeEvidenceRoute } from './add-evidence.js';
import { decideDisputeRoute } from './decide-dispute.js';

export const orderRoutes: RouteModule[] = [
  listOrdersRoute,
  retrieveOrderRoute,
  listOrderEventsRoute,
  claimOrderRoute,
  confirmOrderRoute,
  cancelOrderRoute,
  proposeCancellationRoute,
  acceptCancellationRoute,
  declineCancellationRoute,
  disputeOrderRoute,
  listDisputesRoute,
  retrieveDisputeRoute,
  addDisputeEvidenceRoute,
  decideDisputeRoute,
];
