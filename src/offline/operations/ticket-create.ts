// ticket.create: a manual spending or income (spec §2 panel) or a merchant ticket to invoice (spec §4
// 'Ticket form'). One transaction writes the pending ticket and its operation (and an attachment's);
// a discard removes the ticket and everything queued after it for that ticket.
import { newId } from '../../domain/ids';
import type { VerifiedTicket } from '../../domain/invoicing';
import type { FieldValue } from '../../domain/merchant-fields';
import type { MerchantEntry } from '../../domain/merchants';
import { MSG } from '../../domain/messages';
import { formatMoney } from '../../domain/money';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_TYPES, IMAGE_TYPES, manualTicketPayload, type SpendingForm } from '../../domain/spending-form';
import {
  MANUAL_COMPANY_SHORT_NAME, MANUAL_EXPENSE_STATUS, MANUAL_INCOME_STATUS, TICKET_TYPE, receivedAtFromDate,
  statusName, ticketMonth, type TicketTag,
} from '../../domain/ticket';
import type { AppDb, BlobRow, CategoryRow, OutboxRow, TicketRow } from '../db';
import { requestDrain } from '../drain-signal';
import { guardStorage, makeOp, opTickets, refreshPending, removeOp } from '../outbox';
import { imageOp, newBlob, type Attachment } from './ticket-image';
import { describeTicket, jsonRequest, type Operation } from './operation';

export const ticketCreate: Operation = {
  request: (op, _blobs, ctx) => jsonRequest(ctx, 'POST', '/form/ticket_create?format=json', op.payload),
  changedFields: () => [],
  async undo(db, op) {
    const later = await db.outbox.where('ticketIds').equals(op.ticketId).toArray();
    for (const other of later) {
      const ids = opTickets(other).filter((id) => id !== op.ticketId);
      if (ids.length === 0) await removeOp(db, other);
      else {
        const payload = other.kind === 'ticket.delete' ? { tickets: ids } : other.payload;
        await db.outbox.update(other.seq as number, { ticketId: ids[0] as string, ticketIds: ids, payload });
      }
    }
    await db.tickets.delete(op.ticketId);
  },
  failureMessage: MSG.generic,
  ticketGone: false,
};

/** Writes a new ticket and its create (plus more operations) in one transaction, then asks for a drain. */
async function queueNewTicket(db: AppDb, row: TicketRow, ops: OutboxRow[], now: number, blob?: BlobRow): Promise<void> {
  await guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox, db.blobs], async () => {
      await db.tickets.add(row);
      if (blob) await db.blobs.add(blob);
      for (const op of ops) await db.outbox.add(op);
      await refreshPending(db, [row.ticket_id], now);
    }),
  );
  requestDrain();
}

export interface CreateContext {
  rfc: string;
  username: string;
  /** Expense categories, for the tag name shown before the server answers. */
  categories: readonly CategoryRow[];
}

/** The panel's attachment: png, jpg or pdf (spec §5), up to 2 MB. */
function checkAttachment(file: Attachment): void {
  const allowed = [...ATTACHMENT_TYPES, ...IMAGE_TYPES] as readonly string[];
  if (!allowed.includes(file.type)) throw new Error(MSG.attachmentType);
  if (file.bytes.byteLength > ATTACHMENT_MAX_BYTES) throw new Error(MSG.imageTooLarge);
}

/**
 * A manual spending or income (spec §2 panel). Call checkSpendingForm first: this writes what it is
 * given. Returns the new ticket's id (a UUIDv7 the server keeps).
 */
export async function createManualTicket(
  db: AppDb, form: SpendingForm, ctx: CreateContext, attachment?: Attachment,
): Promise<string> {
  if (attachment) checkAttachment(attachment);
  const now = Date.now();
  const ticketId = newId();
  const payload = manualTicketPayload(form, ctx.rfc, ticketId);
  const info = payload.additional_info;
  const expense = form.kind === 'expense';
  const tagId = info.meta_tag;
  const tags: TicketTag[] = [];
  if (expense && tagId !== null) {
    tags.push({ tag_id: tagId, tag_name: ctx.categories.find((c) => c.id === tagId)?.meta_tag ?? '' });
  }
  const receivedAt = receivedAtFromDate(form.date.trim());
  const blob = attachment ? newBlob(attachment) : null;
  const row: TicketRow = {
    ticket_id: ticketId,
    ticket_type_id: expense ? TICKET_TYPE.expense : TICKET_TYPE.income,
    ticket_status_name: statusName(expense ? MANUAL_EXPENSE_STATUS : MANUAL_INCOME_STATUS) as string,
    received_at: receivedAt,
    company_short_name: MANUAL_COMPANY_SHORT_NAME,
    ticket_number: '',
    amount: (payload.ticket.find((f) => f.form_configuration_id === 3)?.value ?? '0.00'),
    tags,
    income_meta_tag_id: info.income_meta_tag,
    note: info.note,
    include_ticket_image: !!blob,
    ticket_image_text: '',
    user_area: '',
    username: ctx.username,
    receipt: null,
    rfc: ctx.rfc,
    currency: info.currency,
    original_amount: info.original_amount,
    month: ticketMonth(receivedAt),
    syncState: 'pending',
    pendingOps: 0,
  };
  const ops = [makeOp({ kind: 'ticket.create', ticketId, payload, rfc: ctx.rfc, label: `Nuevo ${describeTicket(row)}` }, now)];
  if (blob) ops.push(imageOp(row, blob, now, { include_ticket_image: false }));
  await queueNewTicket(db, row, ops, now, blob ?? undefined);
  return ticketId;
}

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

/** 'Facturar' on the ticket form: a request made offline is kept (shown pending) and sent on reconnect. */
export async function requestMerchantTicket(db: AppDb, r: TicketRequest, now: Date = new Date()): Promise<{ opId: string; ticketId: string }> {
  const ticketId = newId();
  const row = requestedTicketRow(r, ticketId, now);
  const what = r.verified ? `${r.merchant.name} por ${formatMoney(r.verified.total)}` : r.merchant.name;
  const op = makeOp(
    { kind: 'ticket.create', ticketId, payload: merchantTicketPayload(r, ticketId), rfc: r.rfc, label: `Factura de ticket de ${what}` },
    now.getTime(),
  );
  await queueNewTicket(db, row, [op], now.getTime());
  return { opId: op.opId, ticketId };
}
