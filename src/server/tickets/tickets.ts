// Ticket writes (spec §5/§7): manual spending and income, category and note updates, soft delete.
// Creates are idempotent by the client's ticket id on top of the Idempotency-Key middleware.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../domain/categories';
import { isCurrency, NATIONAL_CURRENCY } from '../../domain/currency';
import { newId } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import { FIELD, isAmount, isDate, isFutureDate, NOTE_MAX } from '../../domain/spending-form';
import {
  INCOME_TYPES, MANUAL_COMPANY_ID, MANUAL_EXPENSE_STATUS, MANUAL_INCOME_STATUS, receivedAtFromDate, TICKET_TYPE,
} from '../../domain/ticket';
import type { CreateTicketBody, UpdateTicketBody } from '../../domain/ticket-schemas';
import type { Db } from '../db/client';
import { tickets } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { fail } from '../http/errors';
import { ownClientId } from '../http/own-account';
import { dropReceipts } from '../cfdi/receipts';

const EXPENSE_IDS = new Set(EXPENSE_CATEGORIES.map((c) => c.id));
const INCOME_IDS = new Set(INCOME_CATEGORIES.map((c) => c.id));

const coordinate = (n: number | null | undefined, limit: number) =>
  typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit ? n : null;

/** Checks a manual entry as the panel does (spec §5) and returns its columns. */
function manualEntry(body: CreateTicketBody, now: Date) {
  const fields = new Map(body.ticket.map((f) => [f.form_configuration_id, f.value.trim()]));
  const info = body.additional_info;
  const amount = fields.get(FIELD.amount) ?? '';
  if (!amount) throw fail(400, MSG.amountRequired);
  if (!isAmount(amount)) throw fail(400, MSG.amountInvalid);
  const date = fields.get(FIELD.date) ?? '';
  if (!date) throw fail(400, MSG.dateRequired);
  if (!isDate(date)) throw fail(400, MSG.dateInvalid);
  if (isFutureDate(date, now)) throw fail(400, MSG.dateInFuture);

  const type = info.ticket_type;
  if (type !== TICKET_TYPE.expense && type !== TICKET_TYPE.income) throw fail(400, MSG.badJson);
  const expense = type === TICKET_TYPE.expense;
  const category = expense ? info.meta_tag : info.income_meta_tag;
  if (category === null || category === undefined) throw fail(400, MSG.categoryRequired);
  if (!(expense ? EXPENSE_IDS : INCOME_IDS).has(category)) throw fail(400, MSG.categoryUnknown);

  const currency = info.currency.trim().toUpperCase();
  if (!isCurrency(currency)) throw fail(400, MSG.currencyInvalid);
  let originalAmount: string | null = null;
  if (currency !== NATIONAL_CURRENCY) {
    const original = (info.original_amount ?? '').trim();
    if (!original) throw fail(400, MSG.amountRequired);
    if (!isAmount(original)) throw fail(400, MSG.amountInvalid);
    originalAmount = Number(original).toFixed(2);
  }
  return {
    type,
    // Manual entries always carry the spec's statuses (§4): 3 for spending, 9 for income.
    statusId: expense ? MANUAL_EXPENSE_STATUS : MANUAL_INCOME_STATUS,
    ticketNumber: '',
    amount: Number(amount).toFixed(2),
    receivedAt: new Date(receivedAtFromDate(date)),
    note: info.note.trim().slice(0, NOTE_MAX),
    metaTagId: expense ? category : null,
    incomeMetaTagId: expense ? null : category,
    currency,
    originalAmount,
    latitude: coordinate(info.latitude, 90),
    longitude: coordinate(info.longitude, 180),
  };
}

/** Creates (or finds again) the ticket; answers its id. A client id already used by another user: 409. */
export async function createTicket(db: Db, userId: number, body: CreateTicketBody, now: Date): Promise<string> {
  const clientId = await ownClientId(db, userId, body.usuario.rfc);
  // Only manual-entry tickets are created here; a merchant's ticket becomes the user's with its invoice request.
  if (body.company.id !== MANUAL_COMPANY_ID) throw fail(404, MSG.notFound);
  const entry = manualEntry(body, now);
  const id = (body.additional_info.ticket_id ?? newId()).toLowerCase();
  const inserted = await db
    .insert(tickets)
    .values({ id, userId, clientId, companyId: MANUAL_COMPANY_ID, ...entry, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: tickets.id })
    .returning({ id: tickets.id });
  if (inserted.length === 0) {
    const [existing] = await db.select({ userId: tickets.userId }).from(tickets).where(eq(tickets.id, id));
    // Same owner: a replay, answered the same (even after a delete). Another owner: never revealed.
    if (!existing || existing.userId !== userId) throw fail(409, MSG.idempotencyMismatch);
  }
  return id;
}

/**
 * One call may set a category, an income category and a note. A tag that is not an expense
 * category, or an income category on a spending, changes nothing (spec §5); an empty note neither.
 */
export async function updateTicket(db: Db, userId: number, body: UpdateTicketBody, now: Date): Promise<void> {
  const t = body.ticket;
  const own = and(eq(tickets.id, t.ticket_id), eq(tickets.userId, userId), isNull(tickets.deletedAt));
  const [row] = await db.select({ type: tickets.type }).from(tickets).where(own);
  if (!row) throw fail(404, MSG.ticketNotFound);
  const set: Partial<typeof tickets.$inferInsert> = {};
  if (t.meta_tag_id !== null && EXPENSE_IDS.has(t.meta_tag_id)) set.metaTagId = t.meta_tag_id;
  if (t.income_meta_tag_id !== null && INCOME_TYPES.includes(row.type) && INCOME_IDS.has(t.income_meta_tag_id)) {
    set.incomeMetaTagId = t.income_meta_tag_id;
  }
  const note = (t.notes ?? '').trim().slice(0, NOTE_MAX);
  if (note) set.note = note;
  if (Object.keys(set).length === 0) return;
  const changed = await db.update(tickets).set({ ...set, updatedAt: now }).where(own).returning({ id: tickets.id });
  if (changed.length === 0) throw fail(404, MSG.ticketNotFound);
}

/** Soft delete of the caller's live tickets among ids; their images go. Answers how many were deleted. */
export async function deleteTickets(db: Db, files: FileStore, userId: number, ids: string[], now: Date): Promise<number> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const gone = await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: tickets.id, imageKey: tickets.imageKey, receiptId: tickets.receiptId })
      .from(tickets)
      .where(and(inArray(tickets.id, unique), eq(tickets.userId, userId), isNull(tickets.deletedAt)))
      .for('update');
    if (rows.length === 0) return rows;
    await tx
      .update(tickets)
      .set({ deletedAt: now, updatedAt: now, imageKey: null, imageType: null, imageSize: null, receiptId: null })
      .where(inArray(tickets.id, rows.map((r) => r.id)));
    return rows;
  });
  for (const r of gone) if (r.imageKey) await files.delete(r.imageKey).catch(() => undefined);
  // The CFDI goes with its ticket, so importing it again later makes a new ticket, not a "duplicate".
  await dropReceipts(db, files, gone.flatMap((r) => (r.receiptId ? [r.receiptId] : [])));
  return gone.length;
}
