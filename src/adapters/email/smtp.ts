// The email transport: SMTP through nodemailer, to SMTP_URL. The emails module's sender job
// (src/modules/emails/sender.ts) hands it each queued email, reaching it through the hooks.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import type { MailTransport } from '../../contracts/email.js';

// A server that accepts the connection and then says nothing must not hold an attempt for
// nodemailer's defaults (2 minutes to connect, 10 minutes of silence): these fail it quickly,
// well inside the lease.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

// cache: one SMTP transport (connection pool) per configuration.
const transports = new WeakMap<Config, Transporter>();

/** The SMTP transport of SMTP_URL (one per configuration, made on first use); null without it. */
export function smtpTransport(config: Config): MailTransport | null {
  if (config.smtpUrl === null) return null;
  let transport = transports.get(config);
  if (!transport) {
    transport = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
    transports.set(config, transport);
  }
  return transport;
}
