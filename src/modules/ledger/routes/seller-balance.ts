// GET /v1/sellers/{id}/balance
import type { RouteModule } from '../../../contracts/wiring.js';
import { IdParams } from '../../../http/schemas.js';
import { retrieveSellerBalance } from '../operations.js';
import { SellerBalance } from '../schemas.js';

export const sellerBalanceRoutes: RouteModule = (app) => {
  app.get(
    '/sellers/:id/balance',
    {
      schema: {
        tags: ['Ledger'],
        summary: "Retrieve a seller's balance",
        description:
          "Computed from the ledger in the marketplace currency: `pending` (the seller account: owed, not sent yet), `transferred` (sum of transfers), `reversed` (transfer reversals and transfers that failed after they were made), `owed` (what the seller owes after being paid, recovered from their next releases or written off: docs/ledger.md) and `net` = pending + transferred − reversed − owed. 404 for an unknown seller.",
        params: IdParams,
        response: { 200: SellerBalance },
      },
    },
    async (request) => retrieveSellerBalance(request.ctx, request.params.id),
  );
};
