// PUT /manage/v1/marketplaces/{id}/modes/{mode}/processor: connects the mode to a processor.
import { Type } from '@sinclair/typebox';
import { Body } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { putProcessorConnection } from '../../marketplaces/processor-connection.js';
import { ModeParams, ProcessorConnection, Provider, TAG } from '../schemas.js';

const ConnectionBody = Body({
  provider: Provider,
  secret_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'stripe: sk_… or rk_… of this mode.' })),
  webhook_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'stripe: the whsec_… signing secret.' })),
});
Object.assign(ConnectionBody, {
  examples: [{ provider: 'stripe', secret_key: 'sk_test_51Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Ka1b2', webhook_secret: 'whsec_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7c3d4' }],
});

export const putProcessorRoute: RouteModule = (app, services) => {
  app.put(
    '/marketplaces/:id/modes/:mode/processor',
    {
      schema: {
        tags: [TAG],
        summary: 'Connect a processor',
        description:
          '`{provider: "simulated"}` in test mode only (403 test_mode_only in live), or `{provider: "stripe", secret_key, webhook_secret}` ' +
          'with a key of the same mode. Secrets are stored encrypted and answered masked. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: ModeParams,
        body: ConnectionBody,
        response: { 200: ProcessorConnection },
      },
    },
    async (request) =>
      putProcessorConnection(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }, request.body),
  );
};
