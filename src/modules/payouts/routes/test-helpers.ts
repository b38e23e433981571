// The simulated processor's payout test helper (test-mode keys only).
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../contracts/wiring.js';
import { IdParams } from '../../../http/schemas.js';
import { requireTestMode } from '../../test-helpers/index.js';
import { failSimulatedPayout } from '../operations.js';
import { Payout } from '../schemas.js';

export const payoutTestHelperRoutes: RouteModule = (app) => {
  app.post(
    '/test_helpers/payouts/:id/fail',
    {
      preValidation: requireTestMode,
      schema: {
        tags: ['Test helpers'],
        summary: 'Simulate a failed payout',
        description:
          "The simulated processor fails the payout (pending, in transit, or after it was paid, as a bank can return one): `failed` with `failure_message`, `payout.failed`, and its amount back in the seller's available balance (a `payout_failure` entry). 409 `invalid_state` when canceled or failed already, or made through Stripe. Test-mode keys only (403 `test_mode_only`).",
        params: IdParams,
        body: Type.Union([Type.Object({ message: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }, { additionalProperties: false }), Type.Null()]),
        response: { 200: Payout },
      },
    },
    async (request) => failSimulatedPayout(request.ctx, request.params.id, request.body?.message),
  );
};
