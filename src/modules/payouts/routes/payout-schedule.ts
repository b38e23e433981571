// GET, PUT and DELETE /v1/sellers/{id}/payout_schedule (docs/payouts.md, "Schedules").
import type { RouteModule } from '../../../contracts/wiring.js';
import { IdParams } from '../../../http/schemas.js';
import { deletePayoutSchedule, putPayoutSchedule, retrievePayoutSchedule } from '../operations.js';
import { PutPayoutScheduleBody, SellerPayoutSchedule } from '../schemas.js';

const FIELDS =
  '`method` per_order (each completed order\'s share transferred on its own; the default) or scheduled (shares move to the available balance after `delay_days`, 0–365; ' +
  'a run at 00:00 UTC of each run day pays it in one payout once it reaches `minimum`, ≥ 1 minor unit); `interval` daily, weekly (on `weekly_anchor`, monday … sunday), ' +
  'monthly (on `monthly_anchor`, 1–31, the last day of a shorter month) or manual (only `POST /v1/payouts`).';

export const payoutScheduleRoutes: RouteModule = (app) => {
  app.get(
    '/sellers/:id/payout_schedule',
    {
      schema: {
        tags: ['Payouts'],
        summary: "Retrieve a seller's payout schedule",
        description: `The schedule the seller is paid by: their own (\`source: seller\`) or the mode's \`payout_schedule\` setting (\`source: mode\`). ${FIELDS} 404 for an unknown seller.`,
        params: IdParams,
        response: { 200: SellerPayoutSchedule },
      },
    },
    async (request) => retrievePayoutSchedule(request.ctx, request.params.id),
  );
  app.put(
    '/sellers/:id/payout_schedule',
    {
      schema: {
        tags: ['Payouts'],
        summary: "Set a seller's payout schedule",
        description: `Overrides the mode's setting for this seller; the fields left out take their defaults (interval daily, weekly_anchor monday, monthly_anchor 1, delay_days 0, minimum 1), not the mode's. ${FIELDS} Applies to orders completed from now on (a share already moved keeps its way). 400 \`invalid_request\` naming the param; 404 for an unknown seller.`,
        params: IdParams,
        body: PutPayoutScheduleBody,
        response: { 200: SellerPayoutSchedule },
      },
    },
    async (request) => putPayoutSchedule(request.ctx, request.params.id, request.body),
  );
  app.delete(
    '/sellers/:id/payout_schedule',
    {
      schema: {
        tags: ['Payouts'],
        summary: "Remove a seller's payout schedule",
        description: "The seller follows the mode's `payout_schedule` setting again; answers that schedule (`source: mode`). 404 for an unknown seller.",
        params: IdParams,
        response: { 200: SellerPayoutSchedule },
      },
    },
    async (request) => deletePayoutSchedule(request.ctx, request.params.id),
  );
};
