// GET /v1/daily_totals
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveDailyTotals } from '../operations.js';
import { DailyTotals, DailyTotalsQuery } from '../schemas.js';

export const dailyTotalsRoutes: RouteModule = (app) => {
  app.get(
    '/daily_totals',
    {
      schema: {
        tags: ['Ledger'],
        summary: 'Retrieve the daily totals',
        description:
          "The mode's money per UTC day from the ledger, oldest first, the last item today on the mode's clock: orders paid, gross volume (charged to buyers), platform fees and refunds, in the marketplace currency. `days` (1 to 90, default 30). With payments off nothing moves through the service and every figure is 0. The dashboard's overview draws these.",
        querystring: DailyTotalsQuery,
        response: { 200: DailyTotals },
      },
    },
    async (request) => retrieveDailyTotals(request.ctx, request.query),
  );
};
