// POST /manage/v1/operator/workspaces/{id}/billing_state (Bearer OPERATOR_TOKEN).
import { Body, IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { setBillingState } from '../../accounts/operations.js';
import { BillingState, TAG, Workspace } from '../schemas.js';

const BillingStateBody = Body({ state: BillingState });
Object.assign(BillingStateBody, { examples: [{ state: 'payment_missed' }] });

export const setBillingStateRoute: RouteModule = (app, services) => {
  app.post(
    '/operator/workspaces/:id/billing_state',
    {
      schema: {
        tags: [TAG],
        summary: "Set a workspace's billing state (operator)",
        description:
          'Authenticate with "Authorization: Bearer <OPERATOR_TOKEN>"; without OPERATOR_TOKEN set this route does not exist (404). ' +
          'payment_missed makes the live mode of every marketplace read-only; suspended makes both modes read-only.',
        params: IdParams,
        body: BillingStateBody,
        response: { 200: Workspace },
      },
    },
    async (request) => setBillingState(services, request.params.id, request.body.state),
  );
};
