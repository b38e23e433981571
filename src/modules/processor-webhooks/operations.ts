// Stripe's webhooks for one mode of a marketplace: the event is checked with that mode's signing
// secret, read into processor reports, and handed to the flow that receives them (`receive`, the
// root's src/flows/receive-processor-reports.ts), which records the event id so a second delivery
// changes nothing. Any answer but 2xx makes Stripe deliver again later, so
// only what a retry cannot fix (unknown endpoint, bad signature) is refused.
import { DomainError, errors } from '../../errors.js';
import { MODES, type Mode, type Scope } from '../../scope.js';
import type { ServiceContext } from '../../contracts/context.js';
import { loadProcessorCredentials } from '../marketplaces/index.js';
import { ProcessorEventRejected, type ProcessorEvents } from '../../contracts/processor.js';
import type { Flows } from '../../contracts/wiring.js';
import type { ProcessorWebhookParams, ProcessorWebhookReceipt } from './schemas.js';

const isMode = (mode: string): mode is Mode => (MODES as readonly string[]).includes(mode);

export async function receiveStripeWebhook(
  ctx: ServiceContext,
  receive: Flows['receiveProcessorReports'],
  params: ProcessorWebhookParams,
  rawBody: Buffer | undefined,
  signature: string | string[] | undefined,
): Promise<ProcessorWebhookReceipt> {
  const notFound = errors.missing('processor connection', `${params.marketplace} (${params.mode} mode)`);
  if (!isMode(params.mode)) throw notFound;
  const scope: Scope = { marketplaceId: params.marketplace, mode: params.mode };
  const credentials = await loadProcessorCredentials(ctx.db, ctx.config.secretKey, scope);
  if (credentials === null) throw notFound;
  if (credentials.provider !== 'stripe') {
    throw errors.invalidRequest(`The ${params.mode} mode of this marketplace is connected to the ${credentials.provider} processor, not Stripe.`);
  }
  const event = verifyWithEither(ctx.hooks.stripeEvents, rawBody ?? '', typeof signature === 'string' ? signature : undefined, credentials.webhookSecret, credentials.connectWebhookSecret);
  if (event.livemode !== (scope.mode === 'live')) {
    throw new DomainError('invalid_request', `The event is from Stripe's ${event.livemode ? 'live' : 'test'} mode; this endpoint receives the ${scope.mode} mode's events.`);
  }
  const outcome = await receive(ctx, scope, { provider: 'stripe', eventId: event.id }, event.reports());
  return { received: true, duplicate: outcome === 'duplicate' };
}

/**
 * Stripe signs each webhook endpoint with its own secret: the account endpoint's, and a Connect
 * endpoint's (connected accounts' events) when the connection has one. Either may sign.
 */
function verifyWithEither(events: ProcessorEvents, rawBody: Buffer | string, signature: string | undefined, secret: string, connectSecret: string | null) {
  try {
    return events.verify(rawBody, signature, secret);
  } catch (error) {
    if (!(error instanceof ProcessorEventRejected)) throw error;
    if (connectSecret !== null) {
      try {
        return events.verify(rawBody, signature, connectSecret);
      } catch {
        // The first refusal's reason is the one to report.
      }
    }
    throw new DomainError('invalid_request', error.message);
  }
}
