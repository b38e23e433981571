// The processor-webhooks module's manifest (src/contracts/wiring.ts): what Stripe posts to us.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { processorWebhookRoutes } from './routes/index.js';

export const processorWebhooksModule: ModuleManifest = {
  name: 'processor-webhooks',
  tables: [],
  routes: { root: processorWebhookRoutes },
};
