// The processor webhook routes (root: outside /v1 and /manage/v1).
import type { RouteModule } from '../../../contracts/wiring.js';
import { stripeWebhookRoute } from './stripe.js';

export const processorWebhookRoutes: RouteModule[] = [stripeWebhookRoute];
