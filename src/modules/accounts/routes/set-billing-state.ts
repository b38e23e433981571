// POST /manage/v1/operator/workspaces/{id}/billing_state (Bearer OPERATOR_TOKEN).
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { setBillingState } from '../operations.js';
import { MANAGEMENT_TAG, SetBillingStateBody, Workspace } from '../schemas.js';

export const setBillingStateRoute: RouteModule = (app) => {
  app.post(
    '/operator/workspaces/:id/billing_state',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: "Set a workspace's billing state (operator)",
        description:
          'Authenticate with "Authorization: Bearer <OPERATOR_TOKEN>"; without OPERATOR_TOKEN set this route does not exist (404). ' +
          'payment_missed makes the live mode of every marketplace read-only; suspended makes both modes read-only.',
        params: IdParams,
        body: SetBillingStateBody,
        response: { 200: Workspace },
      },
    },
    async (request) => setBillingState(request.service, request.params.id, request.body),
  );
};
