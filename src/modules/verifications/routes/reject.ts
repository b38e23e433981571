// POST /v1/verifications/{id}/reject: pending → rejected with a reason; the seller becomes rejected.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { decideVerification } from '../operations.js';
import { RejectVerificationBody, Verification } from '../schemas.js';

const EVENTS = 'Emits `verification.updated` (with `previous_attributes`) and `seller.verification_updated`.';

export const rejectVerificationRoute: RouteModule = (app) => {
  app.post(
    '/verifications/:id/reject',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'Reject a verification',
        description: `pending → rejected, with the reason; the seller becomes rejected. 409 \`invalid_state\` unless pending or when the seller is erased. ${EVENTS}`,
        params: IdParams,
        body: RejectVerificationBody,
        response: { 200: Verification },
      },
    },
    async (request) => decideVerification(request.ctx, request.params.id, 'reject', request.body.reason),
  );
};
