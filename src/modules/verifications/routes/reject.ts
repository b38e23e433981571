// POST /v1/verifications/{id}/reject: pending → rejected with a reason; the seller becomes rejected.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { decideVerification } from '../operations.js';
import { RejectVerificationBody, VerificationRecord } from '../schemas.js';

const EVENTS = 'Emits `verification.updated` (with `previous_attributes`) and `seller.verification_updated`.';

export function rejectVerificationRoute(app: App, services: Services): void {
  app.post(
    '/verifications/:id/reject',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'Reject a verification',
        description: `pending → rejected, with the reason; the seller becomes rejected. 409 \`invalid_state\` unless pending or when the seller is erased. ${EVENTS}`,
        params: IdParams,
        body: { ...RejectVerificationBody, examples: [{ reason: 'The registration number does not match the business name.' }] },
        response: { 200: VerificationRecord },
      },
    },
    async (request) => decideVerification(services, request.api.scope, request.params.id, 'reject', request.body.reason),
  );
}
