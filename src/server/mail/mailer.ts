// The mail port: SMTP (SMTP_URL) in production, the dev mailbox in the database otherwise.
import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import { mailMessages } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const DEFAULT_FROM = 'Cuentas Claras <no-responder@cuentasclaras.mx>';

export function smtpMailer(url: string, from = DEFAULT_FROM): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}

/** Keeps every message in mail_messages, shown at GET /dev/mailbox. */
export function devMailboxMailer(db: Db): Mailer {
  return {
    async send(m) {
      await db.insert(mailMessages).values({ to: m.to, subject: m.subject, text: m.text, html: m.html ?? null });
    },
  };
}
