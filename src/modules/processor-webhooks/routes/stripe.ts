// POST /processor/stripe/{marketplace}/{mode}: where a marketplace's Stripe account sends its
// webhooks. Outside /v1 (Stripe has no API key of ours; the signature is the credential) and out
// of the API document, like the simulated processor's pages.
import type { App, RouteModule } from '../../../contracts/wiring.js';
import { BODY_LIMIT } from '../../../http/app.js';
import { receiveStripeWebhook } from '../operations.js';
import { ProcessorWebhookParams, ProcessorWebhookReceipt } from '../schemas.js';

export const stripeWebhookRoute: RouteModule = async (app, services) => {
  // Encapsulated: the signature covers the body byte for byte, so these routes alone read JSON as
  // the raw bytes; everywhere else JSON stays parsed (and checked) by the app's parser.
  await app.register(async (scope: App) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(
      '/processor/stripe/:marketplace/:mode',
      { schema: { hide: true, params: ProcessorWebhookParams, response: { 200: ProcessorWebhookReceipt } } },
      async (request) => receiveStripeWebhook(request.service, services.flows.receiveProcessorReports, request.params, request.body as Buffer | undefined, request.headers['stripe-signature']),
    );
  });
};
