// ticket.update: one field of a ticket (its category, income category or note) changed here at once and
// sent as PUT /api/v2/update_ticket; the server's copy replaces the row once no later edit is queued.
import { MSG } from '../../domain/messages';
import { NOTE_MAX } from '../../domain/spending-form';
import type { Ticket } from '../../domain/ticket';
import type { AppDb, CategoryRow, TicketRow } from '../db';
import { requestDrain } from '../drain-signal';
import { guardStorage, makeOp, refreshPending } from '../outbox';
import { describeTicket, jsonRequest, revertFields, type Operation } from './operation';

type UpdateFields = { meta_tag_id: number } | { income_meta_tag_id: number } | { notes: string };

export const ticketUpdate: Operation = {
  request: (op, _blobs, ctx) => jsonRequest(ctx, 'PUT', '/api/v2/update_ticket', op.payload),
  changedFields(op) {
    const t = (op.payload as { ticket?: Record<string, unknown> }).ticket ?? {};
    const fields: string[] = [];
    if (t.meta_tag_id !== undefined && t.meta_tag_id !== null) fields.push('tags');
    if (t.income_meta_tag_id !== undefined && t.income_meta_tag_id !== null) fields.push('income_meta_tag_id');
    if (typeof t.notes === 'string') fields.push('note');
    return fields;
  },
  async acknowledged(db, op, body, now) {
    const server = (body as { response?: Ticket } | null)?.response;
    const row = await db.tickets.get(op.ticketId);
    const others = await db.outbox.where('ticketIds').equals(op.ticketId).count();
    // Later edits of this ticket are still queued: keep their optimistic values until they land.
    if (row && others === 0 && server && server.ticket_id === op.ticketId) {
      const merged: TicketRow = { ...row, ...server, month: row.month, syncState: 'synced', pendingOps: 0, syncedAt: now };
      await db.tickets.put(merged);
    }
  },
  undo: (db, op, { laterFields }) => revertFields(db, op, laterFields),
  failureMessage: MSG.generic,
  ticketGone: true,
};

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
            label: `${what} del ${describeTicket(row)}`,
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
