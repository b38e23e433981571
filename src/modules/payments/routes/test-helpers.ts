// The simulated processor's test helpers (contract 15; test-mode keys only).
import { Type } from '@sinclair/typebox';
import { IdParams, StringEnum } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { Seller } from '../../sellers/index.js';
import { requireTestMode } from '../../test-helpers/index.js';
import { CardDispute, CardDisputeBody, FailPaymentBody, SucceedPaymentBody, Payment, ProcessorRefundBody, Refund } from '../schemas.js';
import { cardDispute, failPayment, processorRefund, setSimulatedPayouts, succeedPayment } from '../simulated-payments.js';

const SIMULATED_ONLY = 'Simulated processor only: 409 `invalid_state` for a payment made through Stripe. Test-mode keys only (403 `test_mode_only`).';

export const paymentTestHelperRoutes: RouteModule = (app, services) => {
  // The reports are settled by the flow the root hands the routes (src/flows/settle-processor-report.ts).
  const settle = services.flows.settleProcessorReport;
  const helper = { preValidation: requireTestMode };
  app.post(
    '/test_helpers/payments/:id/succeed',
    { ...helper, schema: { tags: ['Test helpers'], summary: 'Simulate the buyer paying', description: `The payment succeeds and its order is committed. On a payment canceled with its order, a late payment: it succeeds and is refunded in full at once (\`late_payment\`). 409 \`invalid_state\` when it already succeeded. With \`amount\` or \`currency\` other than the payment's, the processor's report names them: the check against ours refuses it (\`amount_mismatch\` set, \`payment.failed\`, the payment stays due). ${SIMULATED_ONLY}`, params: IdParams, body: SucceedPaymentBody, response: { 200: Payment } } },
    async (request) => succeedPayment(request.ctx, settle, request.params.id, request.body),
  );
  app.post(
    '/test_helpers/payments/:id/fail',
    { ...helper, schema: { tags: ['Test helpers'], summary: 'Simulate a failed payment attempt', description: `\`payment.failed\` with \`last_failure\` = message; the payment stays due. 409 \`invalid_state\` unless awaiting payment. ${SIMULATED_ONLY}`, params: IdParams, body: FailPaymentBody, response: { 200: Payment } } },
    async (request) => failPayment(request.ctx, settle, request.params.id, request.body),
  );
  app.post(
    '/test_helpers/payments/:id/processor_refund',
    { ...helper, schema: { tags: ['Test helpers'], summary: "Simulate a refund made in the processor's dashboard", description: `A refund \`initiated_by: processor\`, succeeded, without transfer reversal. ${SIMULATED_ONLY}`, params: IdParams, body: ProcessorRefundBody, response: { 200: Refund } } },
    async (request) => processorRefund(request.ctx, settle, request.params.id, request.body),
  );
  app.post(
    '/test_helpers/payments/:id/card_dispute',
    { ...helper, schema: { tags: ['Test helpers'], summary: 'Simulate a chargeback', description: `A card dispute (\`card_dispute.created\`), amount defaulting to the payment's, reason to fraudulent. ${SIMULATED_ONLY}`, params: IdParams, body: CardDisputeBody, response: { 200: CardDispute } } },
    async (request) => cardDispute(request.ctx, settle, request.params.id, request.body),
  );
  app.post(
    '/test_helpers/sellers/:id/payouts',
    {
      ...helper,
      schema: {
        tags: ['Test helpers'],
        summary: "Simulate the processor reporting a seller's payouts status",
        description: '`seller.payouts_updated` when it changes; enabled retries the seller\'s failed releases. Test-mode keys only.',
        params: IdParams,
        body: Type.Object({ status: StringEnum(['pending', 'enabled', 'restricted'] as const) }, { additionalProperties: false, examples: [{ status: 'enabled' }] }),
        response: { 200: Seller },
      },
    },
    async (request) => setSimulatedPayouts(request.ctx, request.params.id, request.body.status),
  );
};
