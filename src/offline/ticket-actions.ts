// The user's ticket actions, offline first (DESIGN §4): each is ONE Dexie transaction that writes the
// ticket (marked pending) and its outbox operation (and attachment bytes), then asks for a drain.
import { newId } from '../domain/ids';
import { MSG } from '../domain/messages';
import { displayDate } from '../domain/dates';
import { formatMoney } from '../domain/money';
import {
  ATTACHMENT_MAX_BYTES, ATTACHMENT_TYPES, IMAGE_TYPES, NOTE_MAX, manualTicketPayload, type SpendingForm,
} from '../domain/spending-form';
import {
  MANUAL_COMPANY_SHORT_NAME, MANUAL_EXPENSE_STATUS, MANUAL_INCOME_STATUS, TICKET_TYPE, isIncome,
  receivedAtFromDate, statusName, ticketMonth, type Ticket, type TicketTag,
} from '../domain/ticket';
import type { AppDb, BlobRow, CategoryRow, OutboxRow, TicketRow } from './db';
import { requestDrain } from './drain-signal';
import { guardStorage, makeOp, opTickets, refreshPending, removeOp } from './outbox';

export { StorageFullError } from './outbox';

export interface CreateContext {
  rfc: string;
  username: string;
  /** Expense categories, for the tag name shown before the server answers. */
  categories: readonly CategoryRow[];
}

export interface Attachment {
  bytes: ArrayBuffer;
  type: string;
  name: string;
}

export interface ImageFile extends Attachment {
  size: number;
}

/** "gasto de $120.00 del 2026-11-22": how the pending list names a ticket. */
function describe(t: Pick<Ticket, 'ticket_type_id' | 'amount' | 'received_at'>): string {
  return `${isIncome(t) ? 'ingreso' : 'gasto'} de ${formatMoney(t.amount)} del ${displayDate(t.received_at)}`;
}

/** Image kinds by their first bytes (the server checks the same way). */
export function sniffImage(bytes: ArrayBuffer): string | null {
  const b = new Uint8Array(bytes.slice(0, 12));
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return 'image/gif';
  const ascii = String.fromCharCode(...b);
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

function checkImage(file: Attachment): void {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type) || !sniffImage(file.bytes)) throw new Error(MSG.imageNotImage);
  if (file.bytes.byteLength > ATTACHMENT_MAX_BYTES) throw new Error(MSG.imageTooLarge);
}

/** The panel's attachment: png, jpg or pdf (spec §5), up to 2 MB. */
function checkAttachment(file: Attachment): void {
  const allowed = [...ATTACHMENT_TYPES, ...IMAGE_TYPES] as readonly string[];
  if (!allowed.includes(file.type)) throw new Error(MSG.attachmentType);
  if (file.bytes.byteLength > ATTACHMENT_MAX_BYTES) throw new Error(MSG.imageTooLarge);
}

function blobRow(file: Attachment): BlobRow {
  return { id: newId(), bytes: file.bytes, type: file.type, name: file.name || 'imagen', size: file.bytes.byteLength };
}

function imageOp(row: TicketRow, blob: BlobRow, now: number, revert: Partial<Ticket>): OutboxRow {
  return makeOp(
    {
      kind: 'ticket.attach_image',
      ticketId: row.ticket_id,
      payload: { field: 'images[0]', name: blob.name, type: blob.type },
      blobId: blob.id,
      rfc: row.rfc,
      label: `Imagen del ${describe(row)}`,
      revert,
    },
    now,
  );
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
    include_ticket_image: false,
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
  const create = makeOp(
    { kind: 'ticket.create', ticketId, payload, rfc: ctx.rfc, label: `Nuevo ${describe(row)}` },
    now,
  );
  const blob = attachment ? blobRow(attachment) : null;
  if (blob) row.include_ticket_image = true;

  await guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox, db.blobs], async () => {
      await db.tickets.add(row);
      await db.outbox.add(create);
      if (blob) {
        await db.blobs.add(blob);
        await db.outbox.add(imageOp(row, blob, now, { include_ticket_image: false }));
      }
      await refreshPending(db, [ticketId], now);
    }),
  );
  requestDrain();
  return ticketId;
}

type UpdateFields = { meta_tag_id: number } | { income_meta_tag_id: number } | { notes: string };

/** Applies a one-field update locally and queues it; false when the ticket is not on this device. */
async function updateTicket(
  db: AppDb, ticketId: string, fields: UpdateFields, change: (row: TicketRow) => Partial<Ticket> | null, what: string,
): Promise<boolean> {
  const now = Date.now();
  const done = await guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox], async () => {
      const row = await db.tickets.get(ticketId);
      if (!row) return false;
      const next = change(row);
      if (!next) return false;
      const revert: Partial<Ticket> = {};
      for (const k of Object.keys(next) as (keyof Ticket)[]) (revert as Record<string, unknown>)[k] = row[k];
      await db.tickets.update(ticketId, next);
      await db.outbox.add(
        makeOp(
          {
            kind: 'ticket.update',
            ticketId,
            payload: { ticket: { ticket_id: ticketId, ...fields } },
            rfc: row.rfc,
            label: `${what} del ${describe(row)}`,
            revert,
          },
          now,
        ),
      );
      await refreshPending(db, [ticketId], now);
      return true;
    }),
  );
  if (done) requestDrain();
  return done;
}

/**
 * Sets a ticket's category (its first tag). For an expense (type 2) a tag that is not an expense
 * category changes nothing (spec §5); returns whether something changed.
 */
export function setTicketCategory(
  db: AppDb, ticketId: string, tagId: number, categories: readonly CategoryRow[],
): Promise<boolean> {
  const category = categories.find((c) => c.id === tagId);
  if (!category) return Promise.resolve(false);
  return updateTicket(db, ticketId, { meta_tag_id: tagId }, (row) => {
    if (row.tags[0]?.tag_id === tagId && row.tags[0]?.tag_name === category.meta_tag) return null;
    const rest = row.tags.slice(1).filter((t) => t.tag_id !== tagId);
    return { tags: [{ tag_id: tagId, tag_name: category.meta_tag }, ...rest] };
  }, 'Categoría');
}

export function setIncomeCategory(db: AppDb, ticketId: string, incomeTagId: number): Promise<boolean> {
  return updateTicket(db, ticketId, { income_meta_tag_id: incomeTagId }, (row) =>
    row.income_meta_tag_id === incomeTagId ? null : { income_meta_tag_id: incomeTagId }, 'Categoría');
}

/** A note empty after trimming is not saved (spec §5): returns false. */
export function setTicketNote(db: AppDb, ticketId: string, note: string): Promise<boolean> {
  const text = note.trim();
  if (!text) return Promise.resolve(false);
  if (text.length > NOTE_MAX) return Promise.reject(new Error(MSG.noteTooLong));
  return updateTicket(db, ticketId, { notes: text }, (row) => (row.note === text ? null : { note: text }), 'Nota');
}

/** Images only (png, jpeg, webp, gif; by their bytes), up to 2 MB; else throws the Spanish message. */
export async function attachTicketImage(db: AppDb, ticketId: string, file: ImageFile): Promise<boolean> {
  checkImage(file);
  const now = Date.now();
  const blob = blobRow(file);
  const done = await guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox, db.blobs], async () => {
      const row = await db.tickets.get(ticketId);
      if (!row) return false;
      await db.blobs.add(blob);
      await db.outbox.add(imageOp(row, blob, now, { include_ticket_image: row.include_ticket_image }));
      await db.tickets.update(ticketId, { include_ticket_image: true });
      await refreshPending(db, [ticketId], now);
      return true;
    }),
  );
  if (done) requestDrain();
  return done;
}

/**
 * Removes tickets from the device and queues their removal on the server. A ticket whose creation
 * was never sent just disappears with its queued operations: the server never knew it.
 * Returns how many tickets were removed here.
 */
export async function deleteTickets(db: AppDb, ids: readonly string[]): Promise<number> {
  const now = Date.now();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return 0;
  const removed = await guardStorage(() =>
    db.transaction('rw', [db.tickets, db.outbox, db.blobs], async () => {
      const rows = (await db.tickets.bulkGet(unique)).filter((r): r is TicketRow => !!r);
      const toServer: TicketRow[] = [];
      for (const row of rows) {
        const ops = await db.outbox.where('ticketIds').equals(row.ticket_id).toArray();
        const create = ops.find((o) => o.kind === 'ticket.create' && o.ticketId === row.ticket_id);
        const neverSent = !!create && create.status === 'pending' && create.attempts === 0 && create.lastStatus === null;
        if (neverSent) {
          for (const op of ops) {
            const rest = opTickets(op).filter((id) => id !== row.ticket_id);
            if (rest.length === 0) await removeOp(db, op);
            else await db.outbox.update(op.seq as number, { ticketId: rest[0] as string, ticketIds: rest, payload: { tickets: rest } });
          }
        } else {
          toServer.push(row);
        }
      }
      await db.tickets.bulkDelete(rows.map((r) => r.ticket_id));
      if (toServer.length > 0) {
        const ticketIds = toServer.map((r) => r.ticket_id);
        const first = toServer[0] as TicketRow;
        await db.outbox.add(
          makeOp(
            {
              kind: 'ticket.delete',
              ticketId: first.ticket_id,
              ticketIds,
              payload: { tickets: ticketIds },
              rfc: first.rfc,
              label: ticketIds.length === 1 ? `Eliminar ${describe(first)}` : `Eliminar ${ticketIds.length} tickets`,
              revert: { rows: toServer.map((r) => ({ ...r, syncState: 'synced' as const, pendingOps: 0 })) },
            },
            now,
          ),
        );
      }
      return rows.length;
    }),
  );
  if (removed > 0) requestDrain();
  return removed;
}
