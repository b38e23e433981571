// Delivers the outbox through SMTP_URL, as a job kind of the background engine
// (src/workers/engine.ts): queueEmail enqueues one `email.send` job per email in the transaction
// that writes it; a worker claims it under a lease, talks SMTP with no transaction open, and
// records the outcome on the job and the email in one short transaction. Without SMTP_URL the
// kind does not run and the emails stay queued in the outbox.
// A failed attempt is retried after 1, 2, 4, 8 minutes; the 5th failure marks the email failed.
// At least once: an email the SMTP server accepted whose outcome then could not be recorded (the
// database went away, the lease ran out) is sent again. Mail has no idempotency key; sending
// twice is the better failure than never.
import type { Config } from '../../config.js';
import type { Deps } from '../../contracts/deps.js';
import type { MailTransport } from '../../contracts/email.js';
import { runDueJobs } from '../../workers/engine.js';
import type { JobKind } from '../../contracts/background.js';
import { rowOf, rowsOf } from '../../domain/state-machine.js';
import { EMAIL_MACHINE } from './machine.js';
import { selectOutgoingEmail, updateEmailAttemptFailed, updateEmailSent } from './queries.js';

export const EMAIL_SEND_JOB = 'email.send';
export const MAX_ATTEMPTS = 5;
export type { MailTransport };
const RETRY_BASE_MS = 60_000;
const BATCH_MAX = 100;
const LEASE_MS = 2 * 60_000;

/** The sender address: no-reply at the host of PUBLIC_URL. */
export function fromAddress(config: Config): string {
  return `Marketplace <no-reply@${new URL(config.publicUrl).hostname}>`;
}

/** The email job kind, sending through `transport` when given, through SMTP_URL otherwise. */
export function emailSendKind(transport?: MailTransport): JobKind {
  return {
    name: EMAIL_SEND_JOB,
    clock: 'real',
    maxAttempts: MAX_ATTEMPTS,
    backoffMs: (attempt) => RETRY_BASE_MS * 2 ** (attempt - 1),
    leaseMs: LEASE_MS,
    concurrency: 10,
    enabled: (config) => transport !== undefined || config.smtpUrl !== null,
    async handle(job, { db, config, hooks }) {
      // Every email job names its email; one that does not has nothing to send.
      if (job.subjectId === null) return { status: 'succeeded', detail: 'skipped' };
      const email = await selectOutgoingEmail(db, job.subjectId);
      // Marked by hand meanwhile, or sent by an attempt whose outcome was recorded after all.
      if (!email || rowOf(EMAIL_MACHINE, email.status, 'send') === undefined) return { status: 'succeeded', detail: 'skipped' };
      const sender = transport ?? hooks.mailTransport(config);
      if (!sender) return { status: 'retry', error: 'SMTP_URL is not set' };
      await sender.sendMail({ from: fromAddress(config), to: email.to_addresses, subject: email.subject, text: email.body_text });
      return { status: 'succeeded', detail: 'sent' };
    },
    async onSettled(tx, job, settled) {
      if (job.subjectId === null) return;
      if (settled.result === 'succeeded' && settled.detail === 'sent') {
        const [row] = rowsOf(EMAIL_MACHINE, 'send', 'platform');
        await updateEmailSent(tx, job.subjectId, row!.from, settled.at, job.attempt);
      } else if (settled.result === 'retrying' || settled.result === 'failed') {
        // The table's row: `retry` leaves the email queued, `fail` (the last attempt) ends it.
        const [row] = rowsOf(EMAIL_MACHINE, settled.result === 'failed' ? 'fail' : 'retry', 'platform');
        await updateEmailAttemptFailed(tx, job.subjectId, row!.from, {
          status: row!.to,
          attempts: job.attempt,
          error: settled.error ?? '',
          nextAttemptAt: settled.nextRunAt ?? null,
        });
      }
    },
  };
}

/** The kind the worker runs: through SMTP_URL. */
export const emailSendJob: JobKind = emailSendKind();

export interface SendReport {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Sends the queued emails that are due now (up to `max`) in this call and reports what happened:
 * the worker's engine does the same continuously. Without SMTP_URL and without a `transport`, it
 * sends nothing: the emails stay queued in the outbox.
 */
export async function sendQueuedEmails(deps: Deps, transport?: MailTransport, max = BATCH_MAX): Promise<SendReport> {
  const report: SendReport = { sent: 0, retrying: 0, failed: 0 };
  const settled = await runDueJobs(deps, transport ? emailSendKind(transport) : emailSendJob, { max });
  for (const outcome of settled) {
    if (outcome.result === 'succeeded' && outcome.detail === 'sent') report.sent++;
    else if (outcome.result === 'retrying') report.retrying++;
    else if (outcome.result === 'failed') report.failed++;
  }
  return report;
}
