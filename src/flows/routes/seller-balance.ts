// GET /v1/sellers/{id}/balance (seller-balance.ts): the ledger's sums and the payout schedule's next run.
import type { RouteModule } from '../../contracts/wiring.js';
import { IdParams } from '../../http/schemas.js';
import { SellerBalance } from '../../modules/ledger/index.js';
import { sellerBalanceFlow } from '../seller-balance.js';

export const sellerBalanceRoute: RouteModule = (app) => {
  app.get(
    '/sellers/:id/balance',
    {
      schema: {
        tags: ['Ledger'],
        summary: "Retrieve a seller's balance",
        description:
          'Computed from the ledger in the marketplace currency: `pending` (the seller account: owed, not sent yet nor available), `available` (a scheduled seller\'s available balance, what the next payout pays; docs/payouts.md), ' +
          '`transferred` (sum of per-order transfers), `reversed` (transfer reversals and transfers that failed after they were made), `paid_out` (payouts not failed or canceled), ' +
          '`owed` (what the seller owes after being paid, recovered from their next releases or payouts or written off: docs/ledger.md) and `net` = pending + available + transferred + paid_out − reversed − owed; ' +
          "`next_payout_at` from the seller's payout schedule (null for per_order and manual). There is no `reserved` figure: reserves do not exist yet. 404 for an unknown seller.",
        params: IdParams,
        response: { 200: SellerBalance },
      },
    },
    async (request) => sellerBalanceFlow(request.ctx, request.params.id),
  );
};
