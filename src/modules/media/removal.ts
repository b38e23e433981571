// The end of media. Whatever deletes a media row (the API, the end of an upload grant that was
// never completed, the removal of its listing, the erasure of its seller) passes the deleted rows
// here in its transaction: each gets its `media.deleted` event, its upload timer cancelled, and a
// `media.file_delete` job, which deletes the stored file after commit with no transaction open
// (for S3 that is a network call). Deleting a file that is not there succeeds, so the job may run
// twice, and a file that arrives after its media went is deleted by the same job's retry.
import type { Tx } from '../../db/db.js';
import { emitEvent } from '../../outbox/emit.js';
import type { Scope } from '../../scope.js';
import { cancelTimer } from '../../workers/timers.js';
import { enqueueJob } from '../../workers/job-queue.js';
import type { JobKind } from '../../contracts/background.js';
import type { MediaRow } from './queries.js';
import { serializeMedia } from './serialize.js';
import { MEDIA_UPLOAD_EXPIRE_TIMER } from './status.js';
import type { Media } from './schemas.js';

export const MEDIA_FILE_DELETE_JOB = 'media.file_delete';

export const mediaFileDeleteJob: JobKind = {
  name: MEDIA_FILE_DELETE_JOB,
  // Enqueued at a time of the mode's clock (the change's `now`), so it is due at once in test mode too.
  clock: 'mode',
  maxAttempts: 10,
  leaseMs: 60_000,
  async handle(job, { hooks }) {
    const key = (job.payload as { key?: unknown }).key;
    if (typeof key !== 'string') return { status: 'failed', error: 'the job names no storage key' };
    await hooks.storage.delete(key);
    return { status: 'succeeded' };
  },
};

/** Events, timers and file deletion of deleted media rows; answers their objects (url null). */
export async function removeMediaRows(tx: Tx, scope: Scope, rows: readonly MediaRow[], now: Date): Promise<Media[]> {
  const objects: Media[] = [];
  for (const row of rows) {
    const media = serializeMedia(row, null);
    await cancelTimer(tx, scope, MEDIA_UPLOAD_EXPIRE_TIMER, row.id);
    await enqueueJob(tx, mediaFileDeleteJob, { owner: scope, runAt: now, subjectId: row.id, payload: { key: row.storage_key } });
    await emitEvent(tx, scope, now, 'media.deleted', media);
    objects.push(media);
  }
  return objects;
}
