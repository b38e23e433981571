// What the emails module needs of a mail transport (SMTP through nodemailer:
// src/adapters/email/smtp.ts, wired by the composition root; tests may hand in their own).
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';

export type MailTransport = Pick<Transporter, 'sendMail'>;

/** The transport of a configuration (SMTP_URL), made on first use; null without SMTP_URL. */
export type MailTransports = (config: Config) => MailTransport | null;
