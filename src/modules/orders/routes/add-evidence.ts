// POST /v1/disputes/{id}/evidence
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { addDisputeEvidence } from '../disputes.js';
import { AddEvidenceBody, Dispute } from '../schemas.js';

export const addDisputeEvidenceRoute: RouteModule = (app) => {
  app.post(
    '/disputes/:id/evidence',
    {
      schema: {
        tags: ['Disputes'],
        summary: 'Add evidence to a dispute',
        description:
          'The buyer or the seller of the order adds text while the dispute is open (`dispute.evidence_added`). 403 `actor_not_party`; 409 `invalid_state` once decided. `text` is at most 5000 characters (400 `param: text`); a dispute takes at most `MAX_EVIDENCE_PER_DISPUTE` items (a setting of the service, default 50), then 409 `limit_exceeded`, so the evidence array the event carries stays finite.',
        params: IdParams,
        body: AddEvidenceBody,
        response: { 200: Dispute },
      },
    },
    async (request) => addDisputeEvidence(request.ctx, request.params.id, request.body),
  );
};
