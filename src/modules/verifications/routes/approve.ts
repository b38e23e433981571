// POST /v1/verifications/{id}/approve: pending → verified; the seller becomes verified.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { decideVerification } from '../operations.js';
import { Verification } from '../schemas.js';

const EVENTS = 'Emits `verification.updated` (with `previous_attributes`) and `seller.verification_updated`.';

export const approveVerificationRoute: RouteModule = (app) => {
  app.post(
    '/verifications/:id/approve',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'Approve a verification',
        description: `pending → verified; the seller becomes verified. 409 \`invalid_state\` unless pending or when the seller is erased. ${EVENTS}`,
        params: IdParams,
        response: { 200: Verification },
      },
    },
    async (request) => decideVerification(request.ctx, request.params.id, 'approve', null),
  );
};
