// DELETE /manage/v1/marketplaces/{id}/modes/{mode}/processor
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../http/types.js';
import { deleteProcessorConnection } from '../../marketplaces/processor-connection.js';
import { EXAMPLES, ModeParams, ProcessorConnection, TAG } from '../schemas.js';

export const deleteProcessorRoute: RouteModule = (app, services) => {
  app.delete(
    '/marketplaces/:id/modes/:mode/processor',
    {
      schema: {
        tags: [TAG],
        summary: 'Disconnect the processor',
        description:
          'Answers the removed connection (masked) with deleted: true. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: ModeParams,
        response: {
          200: Type.Composite([ProcessorConnection, Type.Object({ deleted: Type.Literal(true) })], {
            examples: [{ ...EXAMPLES.processor, deleted: true }],
          }),
        },
      },
    },
    async (request) =>
      deleteProcessorConnection(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }),
  );
};
