// Creating an invoice request (every channel ends here): in ONE transaction the requester's ticket (when
// signed in), the request row, and the claim of the merchant tickets — UPDATE … SET invoice_request_id
// WHERE invoice_request_id IS NULL. Two requests racing for a ticket: the second waits on the first's
// row lock, then finds the ticket taken and is refused, so a ticket never gets two invoices.
import { and, eq, inArray, isNull, ne, notInArray } from 'drizzle-orm';
import { newId } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import type { Db } from '../db/client';
import { invoiceRequests, merchantTickets, tickets, type InvoiceReceiver } from '../db/schema';
import { fail } from '../http/errors';
import type { MerchantTicketRow } from './ports';

const PENDIENTE = 2;
const EXPENSE = 2;

export type Channel = 'form' | 'merchant' | 'anonymous' | 'multi';

export interface NewRequest {
  companyId: number;
  channel: Channel;
  tickets: readonly MerchantTicketRow[];
  receiver: InvoiceReceiver;
  email: string;
  note: string;
  /** The signed-in requester and the tax account the invoice goes to; absent = anonymous. */
  requester?: { userId: number; clientId: number; ticketId?: string };
  /** The signed-in caller of an anonymous-form request: the invoice is theirs to refacturar, though it lands in no account. */
  owner?: number;
  /** Refacturar: an invoice already stamped for these tickets is replaced (old → 'sustituida'). */
  refactura?: boolean;
}

export interface CreatedRequest {
  requestId: string;
  ticketId: string | null;
  /** A replay of a request made before (same ticket id): nothing new was created. */
  replay: boolean;
}

/** Joined ticket numbers for the requester's ticket (text column, kept short). */
const numbersOf = (ts: readonly MerchantTicketRow[]) => ts.map((t) => t.ticketNumber).join(', ').slice(0, 500);

function sumTotals(ts: readonly MerchantTicketRow[]): string {
  let cents = 0n;
  for (const t of ts) {
    const [int = '0', frac = ''] = t.total.split('.');
    cents += BigInt(int) * 100n + BigInt(frac.padEnd(2, '0').slice(0, 2));
  }
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

export async function createInvoiceRequest(db: Db, r: NewRequest, now: Date): Promise<CreatedRequest> {
  const requestId = newId();
  const ids = r.tickets.map((t) => t.id);
  return db.transaction(async (tx) => {
    let ticketId: string | null = null;
    if (r.requester) {
      ticketId = (r.requester.ticketId ?? newId()).toLowerCase();
      const [existing] = await tx.select({ userId: tickets.userId }).from(tickets).where(eq(tickets.id, ticketId));
      if (existing) {
        // A replay of the same create (same client ticket id): answer what it made.
        if (existing.userId !== r.requester.userId) throw fail(409, MSG.idempotencyMismatch);
        const [made] = await tx.select({ id: invoiceRequests.id }).from(invoiceRequests).where(eq(invoiceRequests.ticketId, ticketId)).orderBy(invoiceRequests.createdAt);
        if (made) return { requestId: made.id, ticketId, replay: true };
        throw fail(409, MSG.idempotencyMismatch);
      }
    }

    const claimed = await tx
      .update(merchantTickets)
      .set({ invoiceRequestId: requestId })
      .where(and(inArray(merchantTickets.id, ids), isNull(merchantTickets.invoiceRequestId)))
      .returning({ id: merchantTickets.id });
    const actor = r.requester?.userId ?? r.owner ?? null;
    const replacesId = claimed.length < ids.length ? await takeOver(tx, requestId, ids, { refactura: r.refactura ?? false, actor }, now) : null;

    if (r.requester && ticketId) {
      const first = [...r.tickets].sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime())[0]!;
      await tx.insert(tickets).values({
        id: ticketId,
        userId: r.requester.userId,
        clientId: r.requester.clientId,
        type: EXPENSE,
        statusId: PENDIENTE,
        companyId: r.companyId,
        ticketNumber: numbersOf(r.tickets),
        amount: sumTotals(r.tickets),
        receivedAt: first.issuedAt,
        note: r.note,
        createdAt: now,
        updatedAt: now,
      });
    }
    await tx.insert(invoiceRequests).values({
      id: requestId,
      companyId: r.companyId,
      userId: actor,
      clientId: r.requester?.clientId ?? null,
      ticketId,
      channel: r.channel,
      receiver: r.receiver,
      email: r.email,
      note: r.note,
      status: 'solicitada',
      replacesId,
      createdAt: now,
      updatedAt: now,
    });
    return { requestId, ticketId, replay: false };
  });
}

/**
 * Some tickets already belong to a request. A request that failed ('error', never stamped) is replaced;
 * a stamped one only with refactura, and when a signed-in user requested it, only by that user; one
 * still on its way refuses. Answers the request replaced.
 */
async function takeOver(tx: Db, requestId: string, ids: readonly string[], by: { refactura: boolean; actor: number | null }, now: Date): Promise<string | null> {
  const held = await tx
    .select({ ticket: merchantTickets.id, holder: invoiceRequests.id, status: invoiceRequests.status, userId: invoiceRequests.userId })
    .from(merchantTickets)
    .innerJoin(invoiceRequests, eq(invoiceRequests.id, merchantTickets.invoiceRequestId))
    .where(and(inArray(merchantTickets.id, [...ids]), ne(merchantTickets.invoiceRequestId, requestId)));
  if (held.some((h) => h.status === 'solicitada')) throw fail(409, MSG.invoiceInFlight);
  const stamped = held.filter((h) => h.status === 'timbrada' || h.status === 'enviada');
  if (stamped.length > 0 && !by.refactura) throw fail(409, MSG.ticketAlreadyInvoiced);
  // Whoever owns the invoice decides about it: knowing the ticket is not enough to replace another's.
  for (const h of stamped) {
    if (h.userId !== null && h.userId !== by.actor) throw fail(403, by.actor === null ? MSG.refacturaSignInRequired : MSG.refacturaNotOwner);
  }
  let replaced: string | null = null;
  for (const holder of new Set(held.map((h) => h.holder))) {
    const status = held.find((h) => h.holder === holder)!.status;
    // The replaced request's tickets must all be in this one: an invoice is replaced whole.
    const others = await tx
      .select({ id: merchantTickets.id })
      .from(merchantTickets)
      .where(and(eq(merchantTickets.invoiceRequestId, holder), notInArray(merchantTickets.id, [...ids])));
    if (others.length > 0) throw fail(409, MSG.ticketAlreadyInvoiced);
    const gone = await tx
      .update(invoiceRequests)
      .set({ status: 'sustituida', updatedAt: now })
      .where(and(eq(invoiceRequests.id, holder), eq(invoiceRequests.status, status)))
      .returning({ id: invoiceRequests.id });
    // It moved on meanwhile (the worker stamped it): refuse rather than guess.
    if (gone.length === 0) throw fail(409, MSG.invoiceInFlight);
    await tx.update(merchantTickets).set({ invoiceRequestId: requestId }).where(eq(merchantTickets.invoiceRequestId, holder));
    if (status !== 'error' || !replaced) replaced = holder;
  }
  return replaced;
}
