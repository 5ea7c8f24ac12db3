// 'Facturar' on the ticket form (spec §4 'Ticket form'): the requester's ticket and its create operation
// go through the outbox in one transaction, like manual tickets, so a request made offline is kept
// (shown pending) and sent on reconnect. The screen then waits briefly for the server's answer.
import { newId } from '../../../domain/ids';
import type { FieldValue } from '../../../domain/merchant-fields';
import type { MerchantEntry } from '../../../domain/merchants';
import { formatMoney } from '../../../domain/money';
import { TICKET_TYPE, ticketMonth } from '../../../domain/ticket';
import type { AppDb, TicketRow } from '../../../offline/db';
import { requestDrain } from '../../../offline/drain-signal';
import { discardOp, guardStorage, makeOp, refreshPending } from '../../../offline/outbox';
import type { VerifiedTicket } from '../../api/invoicing';

/** ticket_status 2 = 'pendiente' until the invoice arrives (contract: type 2, status 2). */
export const REQUESTED_STATUS = 2;
export const DEFAULT_USO_CFDI = 'G03';

export interface TicketRequest {
  merchant: MerchantEntry;
  rfc: string;
  username: string;
  values: FieldValue[];
  note: string;
  /** What the server said about the ticket when it could be asked (null when offline). */
  verified: VerifiedTicket | null;
}

/** The body of POST /form/ticket_create for a merchant ticket (spec §3 New ticket payload). */
export function merchantTicketPayload(r: TicketRequest, ticketId: string) {
  return {
    usuario: { rfc: r.rfc },
    company: { id: r.merchant.id },
    ticket: r.values,
    additional_info: {
      ticket_id: ticketId,
      note: r.note,
      latitude: null,
      longitude: null,
      meta_tag: null,
      income_meta_tag: null,
      ticket_type: TICKET_TYPE.expense,
      ticket_status: REQUESTED_STATUS,
      uso_cfdi: DEFAULT_USO_CFDI,
    },
  };
}

/** The row shown in the month's list until the server's copy replaces it. */
export function requestedTicketRow(r: TicketRequest, ticketId: string, now: Date): TicketRow {
  const receivedAt = r.verified?.issued_at ?? now.toISOString();
  return {
    ticket_id: ticketId,
    ticket_type_id: TICKET_TYPE.expense,
    ticket_status_name: 'pendiente',
    received_at: receivedAt,
    company_short_name: r.merchant.short_name,
    ticket_number: r.verified?.ticket_number ?? r.values[0]?.value ?? '',
    amount: r.verified?.total ?? '0.00',
    tags: [],
    income_meta_tag_id: null,
    note: r.note,
    include_ticket_image: false,
    ticket_image_text: '',
    user_area: '',
    username: r.username,
    receipt: null,
    rfc: r.rfc,
    month: ticketMonth(receivedAt),
    syncState: 'pending',
    pendingOps: 0,
  };
}

/** Queues the request; returns the operation id to follow. */
export async function queueTicketRequest(db: AppDb, r: TicketRequest, now: Date = new Date()): Promise<{ opId: string; ticketId: string }> {
  const ticketId = newId();
  const row = requestedTicketRow(r, ticketId, now);
  const what = r.verified ? `${r.merchant.name} por ${formatMoney(r.verified.total)}` : r.merchant.name;
  const op = makeOp(
    { kind: 'ticket.create', ticketId, payload: merchantTicketPayload(r, ticketId), rfc: r.rfc, label: `Factura de ticket de ${what}` },
    now.getTime(),
  );
  await guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox], async () => {
      await db.tickets.add(row);
      await db.outbox.add(op);
      await refreshPending(db, [ticketId], now.getTime());
    }),
  );
  requestDrain();
  return { opId: op.opId, ticketId };
}

export type RequestOutcome = { kind: 'sent' } | { kind: 'refused'; message: string } | { kind: 'queued' };

/**
 * Waits for the drain to answer: sent (gone from the outbox), refused (parked with the server's message:
 * the request is discarded so no dead ticket stays behind) or still queued after `timeoutMs`.
 */
export async function awaitTicketRequest(
  db: AppDb, opId: string, opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<RequestOutcome> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  const interval = opts.intervalMs ?? 250;
  for (;;) {
    const op = await db.outbox.where('opId').equals(opId).first();
    if (!op) return { kind: 'sent' };
    if (op.status === 'failed') {
      const message = op.lastError ?? '';
      await discardOp(db, opId);
      return { kind: 'refused', message };
    }
    // A network failure leaves it pending with a later attempt: it will go on reconnect.
    if (Date.now() >= deadline || (op.attempts > 0 && op.lastStatus === null)) return { kind: 'queued' };
    await new Promise((res) => setTimeout(res, interval));
  }
}
