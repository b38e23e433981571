// The webhook routes (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { createWebhookEndpointRoute } from './create-endpoint.js';
import { deleteWebhookEndpointRoute } from './delete-endpoint.js';
import { listWebhookDeliveriesRoute } from './list-deliveries.js';
import { listWebhookEndpointsRoute } from './list-endpoints.js';
import { replayWebhookDeliveryRoute } from './replay-delivery.js';
import { replayFailedWebhookDeliveriesRoute } from './replay-failed.js';
import { retrieveWebhookDeliveryRoute } from './retrieve-delivery.js';
import { retrieveWebhookEndpointRoute } from './retrieve-endpoint.js';
import { rotateWebhookEndpointSecretRoute } from './rotate-secret.js';
import { sendTestEventRoute } from './send-test-event.js';
import { updateWebhookEndpointRoute } from './update-endpoint.js';

export const webhookRoutes: RouteModule[] = [
  createWebhookEndpointRoute,
  listWebhookEndpointsRoute,
  retrieveWebhookEndpointRoute,
  updateWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  rotateWebhookEndpointSecretRoute,
  sendTestEventRoute,
  replayFailedWebhookDeliveriesRoute,
  listWebhookDeliveriesRoute,
  retrieveWebhookDeliveryRoute,
  replayWebhookDeliveryRoute,
];
