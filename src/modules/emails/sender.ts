// Delivers the outbox through SMTP_URL. Any number of workers may run this: each email is claimed
// with FOR UPDATE SKIP LOCKED in its own short transaction, sent, and marked in that transaction,
// so no two workers send the same row. A failed attempt is retried with backoff
// (RETRY_BASE_MS × 2^attempts) up to MAX_ATTEMPTS, then the email is marked failed.
// An email the SMTP server accepted but whose commit then failed could be sent twice: mail has no
// idempotency key, and sending once at least is the better failure.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';

export const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 60_000;
const BATCH_MAX = 100;

/** What sending needs of a nodemailer transport (tests may hand in their own). */
export type MailTransport = Pick<Transporter, 'sendMail'>;

export interface SendReport {
  sent: number;
  retrying: number;
  failed: number;
}

const transports = new WeakMap<Config, Transporter>();

function transportFor(config: Config): MailTransport | null {
  if (config.smtpUrl === null) return null;
  let transport = transports.get(config);
  if (!transport) {
    transport = nodemailer.createTransport(config.smtpUrl);
    transports.set(config, transport);
  }
  return transport;
}

/** The sender address: no-reply at the host of PUBLIC_URL. */
export function fromAddress(config: Config): string {
  return `Marketplace <no-reply@${new URL(config.publicUrl).hostname}>`;
}

interface ClaimedEmail {
  id: string;
  to_addresses: string[];
  subject: string;
  body_text: string;
  attempts: number;
}

/**
 * Sends queued emails that are due (up to `max`, default 100) and reports what happened. Without
 * SMTP_URL and without a `transport`, it sends nothing: the emails stay queued in the outbox.
 */
export async function sendQueuedEmails(
  db: Db,
  clock: Clock,
  config: Config,
  transport?: MailTransport,
  max = BATCH_MAX,
): Promise<SendReport> {
  const report: SendReport = { sent: 0, retrying: 0, failed: 0 };
  const sender = transport ?? transportFor(config);
  if (!sender) return report;
  for (let i = 0; i < max; i++) {
    const outcome = await sendOne(db, clock, config, sender);
    if (outcome === null) break;
    report[outcome]++;
  }
  return report;
}

async function sendOne(db: Db, clock: Clock, config: Config, sender: MailTransport): Promise<keyof SendReport | null> {
  return db.transaction(async (tx) => {
    const now = new Date(clock.nowMs());
    const rows = await tx.query<ClaimedEmail>(
      `SELECT id, to_addresses, subject, body_text, attempts FROM emails
        WHERE status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= $1)
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    const email = rows[0];
    if (!email) return null;
    try {
      await sender.sendMail({ from: fromAddress(config), to: email.to_addresses, subject: email.subject, text: email.body_text });
    } catch (error) {
      const attempts = email.attempts + 1;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const giveUp = attempts >= MAX_ATTEMPTS;
      await tx.query(
        `UPDATE emails SET attempts = $2, last_error = $3, status = $4, next_attempt_at = $5 WHERE id = $1`,
        [email.id, attempts, message, giveUp ? 'failed' : 'queued', giveUp ? null : new Date(now.getTime() + RETRY_BASE_MS * 2 ** email.attempts)],
      );
      return giveUp ? 'failed' : 'retrying';
    }
    await tx.query(`UPDATE emails SET attempts = attempts + 1, status = 'sent', sent_at = $2, last_error = NULL WHERE id = $1`, [
      email.id,
      new Date(clock.nowMs()),
    ]);
    return 'sent';
  });
}
