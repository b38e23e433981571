// POST /v1/verifications/{id}/approve: pending → verified; the seller becomes verified.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { decideVerification } from '../operations.js';
import { VerificationRecord } from '../schemas.js';

const EVENTS = 'Emits `verification.updated` (with `previous_attributes`) and `seller.verification_updated`.';

export function approveVerificationRoute(app: App, services: Services): void {
  app.post(
    '/verifications/:id/approve',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'Approve a verification',
        description: `pending → verified; the seller becomes verified. 409 \`invalid_state\` unless pending or when the seller is erased. ${EVENTS}`,
        params: IdParams,
        response: { 200: VerificationRecord },
      },
    },
    async (request) => decideVerification(services, request.api.scope, request.params.id, 'approve', null),
  );
}
