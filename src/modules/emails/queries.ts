// Every SQL statement of the email outbox. The outbox is workspace-level: each statement names
// the workspace, except the sender's, which address one email by the id its job carries.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { EmailStatus } from './machine.js';

export type { EmailStatus };

/** What the outbox list shows: display_text stands in for a body that holds a secret. */
export interface ListedEmailRow {
  id: string;
  to_addresses: string[];
  subject: string;
  shown_text: string;
  status: EmailStatus;
  created_at: Date;
  sent_at: Date | null;
}

/** What sending needs. */
export interface OutgoingEmailRow {
  to_addresses: string[];
  subject: string;
  body_text: string;
  status: EmailStatus;
}

export async function insertEmail(
  tx: Tx,
  email: { id: string; workspaceId: string; to: string[]; subject: string; text: string; displayText: string | null; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO emails (id, workspace_id, to_addresses, subject, body_text, display_text, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7)`,
    [email.id, email.workspaceId, JSON.stringify(email.to), email.subject, email.text, email.displayText, email.now],
  );
}

export function selectEmails(q: Queryable, workspaceId: string, page: PageRequest): Promise<ListedEmailRow[]> {
  return selectPage<ListedEmailRow>(q, {
    sql: `SELECT id, to_addresses, subject, coalesce(display_text, body_text) AS shown_text, status, created_at, sent_at
            FROM emails WHERE workspace_id = $1`,
    params: [workspaceId],
    page,
  });
}

export async function selectOutgoingEmail(q: Queryable, id: string): Promise<OutgoingEmailRow | null> {
  const rows = await q.query<OutgoingEmailRow>('SELECT to_addresses, subject, body_text, status FROM emails WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** The email sent, from one of `from` (the machine's row: it was queued). */
export async function updateEmailSent(tx: Tx, id: string, from: readonly EmailStatus[], at: Date, attempts: number): Promise<void> {
  await tx.query(
    `UPDATE emails SET status = 'sent', sent_at = $2, attempts = $3, last_error = NULL, next_attempt_at = NULL WHERE id = $1 AND status = ANY($4)`,
    [id, at, attempts, from],
  );
}

/** A failed attempt from one of `from` (the machine's row): still queued for the next one (nextAttemptAt), or failed for good. */
export async function updateEmailAttemptFailed(
  tx: Tx,
  id: string,
  from: readonly EmailStatus[],
  outcome: { status: EmailStatus; attempts: number; error: string; nextAttemptAt: Date | null },
): Promise<void> {
  await tx.query(`UPDATE emails SET status = $2, attempts = $3, last_error = $4, next_attempt_at = $5 WHERE id = $1 AND status = ANY($6)`, [
    id,
    outcome.status,
    outcome.attempts,
    outcome.error.slice(0, 1000),
    outcome.nextAttemptAt,
    from,
  ]);
}
