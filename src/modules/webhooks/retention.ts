// Retention: deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS (30 by default) are deleted by
// the worker, a small batch per statement (webhook_deliveries_created_idx), so no long lock is
// held; a full batch runs again at once until the backlog is gone. Pending deliveries stay.
import type { Deps } from '../../contracts/deps.js';
import { deleteOldDeliveries } from './queries.js';

const BATCH = 500;

export function pruneWebhookDeliveries(services: Deps): Promise<number> {
  const before = new Date(services.clock.nowMs() - services.config.webhookDeliveryRetentionDays * 24 * 60 * 60 * 1000);
  return services.db.transaction((tx) => deleteOldDeliveries(tx, before, BATCH));
}
