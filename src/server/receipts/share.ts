// POST /api/v2/send_receipt_email (spec §5 sharing, §7): the PDF and XML of the selected receipts to a
// recipient, with a copy to the user — one message, so it is either sent or not; if the server
// accepts it for the recipient but refuses the copy, the user is told (nothing half-sent silently).
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { shareTotals, shareTotalsText, type ShareReceiptsBody, type ShareTotals } from '../../domain/receipt-share';
import type { CancelStatus, CfdiTipo } from '../../domain/ticket';
import type { Db } from '../db/client';
import { receipts, tickets, users } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { fail } from '../http/errors';
import type { MailAttachment, Mailer } from '../mail/mailer';
import { shareReceiptsMail } from '../mail/templates';
import { entryBase } from './archive';
import { receiptPdf, receiptsOfTickets, receiptXml } from '../cfdi/receipts';
import type { RateLimit, RateLimits } from '../lib/ip-limiter';

/** A user may share at most this many times an hour (an open relay for anyone's inbox otherwise). */
export const SHARES_PER_HOUR = 20;
const HOUR = 3_600_000;

/** The per-user sliding window of shares (shared by every API process when they are several). */
export const shareLimit = (limits: RateLimits): RateLimit => limits('receipt-shares', SHARES_PER_HOUR, HOUR);

export interface ShareDeps {
  db: Db;
  files: FileStore;
  mailer: Mailer;
  limiter: RateLimit;
  now: Date;
}

/**
 * The shared tickets' money, spending and income apart (the modal's rule): each live ticket of the user
 * with a receipt counts once, at the amount it counts in its books (credit notes negative; payment
 * complements, traslados and cancelled CFDI add nothing).
 */
async function totalsOf(db: Db, userId: number, ticketIds: readonly string[]): Promise<ShareTotals> {
  const ids = [...new Set(ticketIds.map((id) => id.toLowerCase()))];
  const rows = await db
    .select({ type: tickets.type, amount: tickets.amount, tipo: receipts.tipo, cancelStatus: receipts.cancelStatus, satStatus: receipts.satStatus })
    .from(tickets)
    .innerJoin(receipts, eq(receipts.id, tickets.receiptId))
    .where(and(inArray(tickets.id, ids), eq(tickets.userId, userId), isNull(tickets.deletedAt)));
  return shareTotals(
    rows.map((r) => ({
      ticket_type_id: r.type,
      amount: r.amount,
      receipt: { tipo: r.tipo as CfdiTipo, cancel_status: r.cancelStatus as CancelStatus | null, sat_status: r.satStatus },
    })),
  );
}

export async function shareReceipts(d: ShareDeps, userId: number, body: ShareReceiptsBody): Promise<void> {
  const rows = await receiptsOfTickets(d.db, userId, body.tickets.map((t) => t.ticket_id));
  if (rows.length === 0) throw fail(422, MSG.archiveNoReceipts);
  const [user] = await d.db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, userId));
  if (!user) throw fail(401, MSG.unauthorized);
  if (!(await d.limiter.take(String(userId), d.now.getTime()))) throw fail(429, MSG.shareRateLimited, { 'Retry-After': '3600' });

  const attachments: MailAttachment[] = [];
  for (const row of rows) {
    const base = entryBase(row);
    attachments.push({ filename: `${base}.pdf`, contentType: 'application/pdf', content: await receiptPdf(d.db, d.files, row) });
    attachments.push({ filename: `${base}.xml`, contentType: 'application/xml', content: await receiptXml(d.files, row) });
  }
  const mail = shareReceiptsMail({
    to: body.email.email,
    senderEmail: user.email,
    senderName: body.from.name || user.username,
    message: body.from.message.trim(),
    count: rows.length,
    totals: shareTotalsText(await totalsOf(d.db, userId, body.tickets.map((t) => t.ticket_id))),
    uuids: rows.map((r) => r.uuid),
  });
  let rejected: string[];
  try {
    ({ rejected } = await d.mailer.send({ ...mail, attachments }));
  } catch (err) {
    console.error('[share] el servidor de correo no aceptó el mensaje:', err instanceof Error ? err.message : err);
    throw fail(502, MSG.generic);
  }
  const refused = new Set(rejected.map((a) => a.toLowerCase()));
  if (refused.has(body.email.email)) throw fail(502, MSG.generic);
  if (refused.has(user.email.toLowerCase())) throw fail(502, MSG.shareCopyFailed);
}
