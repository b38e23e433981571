// The email outbox: every email the service sends is first a row here, written in the transaction
// of the change that causes it, so it exists exactly when the change committed, with the job that
// sends it (sender.ts, through SMTP_URL; without it the emails stay queued and readable here).
import type { Queryable, Tx } from '../../db/db.js';
import { newId } from '../../ids.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { enqueueJob } from '../../workers/job-queue.js';
import { insertEmail, selectEmails, type EmailStatus } from './queries.js';
import { emailSendJob } from './sender.js';

export type { EmailStatus };

export interface EmailRecord {
  object: 'email';
  id: string;
  to: string[];
  subject: string;
  text: string;
  status: EmailStatus;
  created_at: string;
  sent_at: string | null;
}

export interface QueueOptions {
  /**
   * The text GET /manage/v1/emails shows instead of `text`, when `text` holds a secret meant only
   * for its recipient (an invitation link): every member can read the outbox.
   */
  displayText?: string;
}

export const MAX_RECIPIENTS = 100;

/** Queues one email to the given addresses, and the job that sends it, inside the caller's transaction. */
export async function queueEmail(
  tx: Tx,
  workspaceId: string,
  to: string[],
  subject: string,
  text: string,
  now: Date,
  options: QueueOptions = {},
): Promise<EmailRecord> {
  const recipients = [...new Set(to)];
  if (recipients.length === 0) throw new Error('queueEmail needs at least one recipient');
  if (recipients.length > MAX_RECIPIENTS) throw new Error(`queueEmail takes at most ${MAX_RECIPIENTS} recipients`);
  const id = newId('email');
  await insertEmail(tx, { id, workspaceId, to: recipients, subject, text, displayText: options.displayText ?? null, now });
  await enqueueJob(tx, emailSendJob, { owner: { workspaceId }, subjectId: id, runAt: now });
  return {
    object: 'email',
    id,
    to: recipients,
    subject,
    text: options.displayText ?? text,
    status: 'queued',
    created_at: now.toISOString(),
    sent_at: null,
  };
}

export async function listEmails(
  q: Queryable,
  workspaceId: string,
  query: { limit?: number; starting_after?: string },
): Promise<ListEnvelope<EmailRecord>> {
  const page = pageRequest(query, 'email');
  const rows = await selectEmails(q, workspaceId, page);
  return toList(
    rows.map((row) => ({
      object: 'email' as const,
      id: row.id,
      to: row.to_addresses,
      subject: row.subject,
      text: row.shown_text,
      status: row.status,
      created_at: row.created_at.toISOString(),
      sent_at: row.sent_at ? row.sent_at.toISOString() : null,
    })),
    page.limit,
  );
}
