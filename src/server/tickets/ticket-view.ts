// Rows → the ticket JSON of DESIGN §3, read with one joined query (owner's username, RFC, company, tag),
// plus, for tickets of merchants, the latest invoice request (issue 6 'Where is my invoice?').
import { and, desc, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import type { TicketInvoice } from '../../domain/invoicing';
import type { Ticket } from '../../domain/ticket';
import { statusName } from '../../domain/ticket';
import type { Db } from '../db/client';
import { clients, companies, invoiceRequests, metaTags, receipts, tickets, users } from '../db/schema';
import { ticketReviews } from '../db/schema-company';
import { mexicoCityIso } from './mexico-time';

/** The ticket JSON with its invoice request: null for tickets that were never requested. */
export type TicketJson = Ticket & { invoice: TicketInvoice | null };

/** Exported for the company expense view (src/server/company-view), which adds its own joins. */
export function ticketQuery(db: Db) {
  return db
    .select({
      id: tickets.id,
      type: tickets.type,
      statusId: tickets.statusId,
      receivedAt: tickets.receivedAt,
      companyShortName: companies.shortName,
      companyKind: companies.kind,
      ticketNumber: tickets.ticketNumber,
      amount: tickets.amount,
      metaTagId: tickets.metaTagId,
      tagName: metaTags.metaTag,
      incomeMetaTagId: tickets.incomeMetaTagId,
      note: tickets.note,
      imageKey: tickets.imageKey,
      username: users.username,
      rfc: clients.rfc,
      currency: tickets.currency,
      originalAmount: tickets.originalAmount,
      receipt: {
        id: receipts.id,
        rfcIssuer: receipts.rfcIssuer,
        nameIssuer: receipts.nameIssuer,
        rfcReceiver: receipts.rfcReceiver,
        emissionDate: receipts.emissionDate,
        uuid: receipts.uuid,
        impTras: receipts.impTras,
        impRet: receipts.impRet,
        metodoPago: receipts.metodoPago,
        numCtaPago: receipts.numCtaPago,
        satStatus: receipts.satStatus,
      },
      reviewDecision: ticketReviews.decision,
      reviewReason: ticketReviews.reason,
    })
    .from(tickets)
    .innerJoin(clients, eq(clients.id, tickets.clientId))
    .innerJoin(users, eq(users.id, tickets.userId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(metaTags, eq(metaTags.id, tickets.metaTagId))
    .leftJoin(receipts, eq(receipts.id, tickets.receiptId))
    .leftJoin(ticketReviews, eq(ticketReviews.ticketId, tickets.id));
}

export type Row = Awaited<ReturnType<ReturnType<typeof ticketQuery>['execute']>>[number];

export function toTicket(r: Row, invoice: TicketInvoice | null = null): TicketJson {
  return {
    ticket_id: r.id,
    ticket_type_id: r.type,
    ticket_status_name: statusName(r.statusId) ?? 'guardado',
    received_at: mexicoCityIso(r.receivedAt),
    company_short_name: r.companyShortName,
    ticket_number: r.ticketNumber,
    amount: r.amount,
    tags: r.metaTagId !== null && r.tagName !== null ? [{ tag_id: r.metaTagId, tag_name: r.tagName }] : [],
    income_meta_tag_id: r.incomeMetaTagId,
    note: r.note,
    include_ticket_image: r.imageKey !== null,
    ticket_image_text: '',
    user_area: '',
    username: r.username,
    receipt: r.receipt
      ? {
          receipt_id: r.receipt.id,
          rfc_issuer: r.receipt.rfcIssuer,
          name_issuer: r.receipt.nameIssuer,
          rfc_receiver: r.receipt.rfcReceiver,
          emission_date: r.receipt.emissionDate,
          uuid: r.receipt.uuid,
          imp_tras: r.receipt.impTras,
          imp_ret: r.receipt.impRet,
          metodo_pago: r.receipt.metodoPago,
          numctapago: r.receipt.numCtaPago,
          sat_status: r.receipt.satStatus,
        }
      : null,
    rfc: r.rfc,
    currency: r.currency,
    original_amount: r.originalAmount,
    // Only reviewed tickets carry `review`, so every other ticket's JSON is unchanged.
    ...(r.reviewDecision === 'aprobado' || r.reviewDecision === 'rechazado' ? { review: { decision: r.reviewDecision, reason: r.reviewReason } } : {}),
    invoice,
  };
}

/** The latest invoice request of each merchant ticket among rows (one query per 1,000 tickets). */
async function invoicesOf(db: Db, rows: readonly Row[]): Promise<Map<string, TicketInvoice>> {
  const ids = rows.filter((r) => r.companyKind === 'merchant').map((r) => r.id);
  const out = new Map<string, TicketInvoice>();
  for (let i = 0; i < ids.length; i += 1000) {
    const found = await db
      .select({ ticketId: invoiceRequests.ticketId, id: invoiceRequests.id, status: invoiceRequests.status, email: invoiceRequests.email, error: invoiceRequests.error, updatedAt: invoiceRequests.updatedAt })
      .from(invoiceRequests)
      .where(inArray(invoiceRequests.ticketId, ids.slice(i, i + 1000)))
      .orderBy(desc(invoiceRequests.createdAt), desc(invoiceRequests.id));
    for (const f of found) {
      if (!f.ticketId || out.has(f.ticketId)) continue;
      out.set(f.ticketId, {
        request_id: f.id, status: f.status as TicketInvoice['status'], email: f.email, error: f.error, updated_at: f.updatedAt.toISOString(),
      });
    }
  }
  return out;
}

/** One live ticket of that user, or undefined. */
export async function findTicket(db: Db, userId: number, ticketId: string): Promise<TicketJson | undefined> {
  const [row] = await ticketQuery(db).where(and(eq(tickets.id, ticketId), eq(tickets.userId, userId), isNull(tickets.deletedAt)));
  if (!row) return undefined;
  return toTicket(row, (await invoicesOf(db, [row])).get(row.id) ?? null);
}

/** The live tickets of one tax account in [from, to), newest first: a range on the (client_id, received_at) index. */
export async function ticketsInRange(db: Db, clientId: number, from: Date, to: Date): Promise<TicketJson[]> {
  const rows = await ticketQuery(db)
    .where(and(eq(tickets.clientId, clientId), gte(tickets.receivedAt, from), lt(tickets.receivedAt, to), isNull(tickets.deletedAt)))
    .orderBy(desc(tickets.receivedAt), desc(tickets.createdAt), desc(tickets.id));
  const invoices = await invoicesOf(db, rows);
  return rows.map((r) => toTicket(r, invoices.get(r.id) ?? null));
}
