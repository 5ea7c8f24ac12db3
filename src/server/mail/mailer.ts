// The mail port: SMTP (SMTP_URL) in production, the dev mailbox in the database otherwise.
import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import { mailMessages } from '../db/schema';

export interface MailAttachment {
  /** Made by the server (never a user's file name). */
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface MailMessage {
  to: string;
  /** A copy (e.g. to the sender's own address). */
  cc?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface MailResult {
  /** Addresses the server refused while accepting the message for the others. */
  rejected: string[];
}

export interface Mailer {
  /** Throws when the message was not accepted for any recipient. */
  send(message: MailMessage): Promise<MailResult>;
}

export const DEFAULT_FROM = 'Cuentas Claras <no-responder@cuentasclaras.mx>';

const address = (a: string | { address: string }) => (typeof a === 'string' ? a : a.address);

export function smtpMailer(url: string, from = DEFAULT_FROM): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(m) {
      const info = await transport.sendMail({
        from,
        to: m.to,
        cc: m.cc,
        replyTo: m.replyTo,
        subject: m.subject,
        text: m.text,
        html: m.html,
        attachments: m.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })),
      });
      return { rejected: (info.rejected ?? []).map(address) };
    },
  };
}

/** Keeps every message in mail_messages, shown at GET /dev/mailbox. */
export function devMailboxMailer(db: Db): Mailer {
  return {
    async send(m) {
      await db.insert(mailMessages).values({
        to: m.to,
        cc: m.cc ?? null,
        replyTo: m.replyTo ?? null,
        subject: m.subject,
        text: m.text,
        html: m.html ?? null,
        attachments: (m.attachments ?? []).map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          base64: Buffer.from(a.content).toString('base64'),
        })),
      });
      return { rejected: [] };
    },
  };
}
