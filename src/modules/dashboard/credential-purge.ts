// The hourly purge of ended dashboard credentials: sessions past their end (idle or absolute) and
// password resets past their hour. Neither can be used any more; they only take room. Batches of
// 500, SKIP LOCKED, so several workers may run it at once; a full batch runs again at once.
import type { PeriodicJob } from '../../contracts/background.js';
import { deleteEndedPasswordResets, deleteEndedSessions } from './queries.js';
import { SESSION_IDLE_MS } from './sessions.js';

const BATCH = 500;

export const purgeDashboardCredentialsJob: PeriodicJob = {
  name: 'purge_dashboard_credentials',
  everyMs: 60 * 60 * 1000,
  run: (services) =>
    services.db.transaction(async (tx) => {
      const now = new Date(services.clock.nowMs());
      const sessions = await deleteEndedSessions(tx, now, new Date(now.getTime() - SESSION_IDLE_MS), BATCH);
      const resets = await deleteEndedPasswordResets(tx, now, BATCH);
      return sessions === BATCH || resets === BATCH ? sessions + resets : 0;
    }),
};
