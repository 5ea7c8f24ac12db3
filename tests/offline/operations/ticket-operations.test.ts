import { afterEach, describe, expect, it } from 'vitest';
import type { AppDb } from '../../../src/offline/db';
import { MSG } from '../../../src/domain/messages';
import { manualTicketPayload } from '../../../src/domain/spending-form';
import { StorageFullError } from '../../../src/offline/outbox';
import { attachTicketImage } from '../../../src/offline/operations/ticket-image';
import { createManualTicket } from '../../../src/offline/operations/ticket-create';
import { deleteTickets } from '../../../src/offline/operations/ticket-delete';
import { setIncomeCategory, setTicketCategory, setTicketNote } from '../../../src/offline/operations/ticket-update';
import { countPending, listOutbox } from '../../../src/offline/outbox';
import { discardOp, retryOp } from '../../../src/offline/outbox-control';
import { queryMonthPage } from '../../../src/app/tickets/month-query';

const NO_NAMES = { companies: new Map<string, string>(), incomeCategories: new Map<number, string>() };
const monthTickets = (d: typeof db, rfc: string, month: string, page = 1) => queryMonthPage(d, { rfc, month, search: '', page }, NO_NAMES);
import { onDrainRequested } from '../../../src/offline/drain-signal';
import { CATEGORIES, CTX, RFC, RFC2, expenseForm, freshDb, png } from '../outbox-fixtures';
import { isUuidV7 } from '../../../src/domain/ids';

let db: AppDb;
afterEach(async () => {
  await db.delete();
});

const image = (marker = 0) => {
  const bytes = png(marker);
  return { bytes, type: 'image/png', name: 'ticket.png', size: bytes.byteLength };
};

describe('createManualTicket', () => {
  it('writes the pending ticket and its create operation in one go, and asks for a drain', async () => {
    db = freshDb();
    let pokes = 0;
    const off = onDrainRequested(() => pokes++);
    const id = await createManualTicket(db, expenseForm({ amount: '1234.5', note: '  comida  ' }), CTX);
    off();
    expect(isUuidV7(id)).toBe(true);
    expect(pokes).toBe(1);
    const row = await db.tickets.get(id);
    expect(row).toMatchObject({
      ticket_id: id, ticket_type_id: 2, ticket_status_name: 'no facturable', rfc: RFC, month: '2026-11',
      received_at: '2026-11-20T12:00:00-06:00', amount: '1234.50', note: 'comida', company_short_name: 'manual',
      tags: [{ tag_id: 1, tag_name: 'Alimentos y bebidas' }], syncState: 'pending', pendingOps: 1, username: 'ana01',
    });
    const [op] = await listOutbox(db);
    expect(op).toMatchObject({ kind: 'ticket.create', ticketId: id, ticketIds: [id], status: 'pending', attempts: 0, rfc: RFC });
    expect(op!.payload).toEqual(manualTicketPayload(expenseForm({ amount: '1234.5', note: '  comida  ' }), RFC, id));
    expect(op!.label).toBe('Nuevo gasto de $1,234.50 del 2026-11-20');
  });

  it('an income in dollars stores the national amount and the original one', async () => {
    db = freshDb();
    const id = await createManualTicket(
      db, expenseForm({ kind: 'income', category: '3', currency: 'USD', amount: '10', nationalAmount: '182.5' }), CTX,
    );
    expect(await db.tickets.get(id)).toMatchObject({
      ticket_type_id: 4, ticket_status_name: 'ingreso no facturable', amount: '182.50', original_amount: '10.00',
      currency: 'USD', income_meta_tag_id: 3, tags: [],
    });
  });

  it('with an attachment also stores the bytes and queues the image after the create', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm(), CTX, { bytes: png(), type: 'image/png', name: 'r.png' });
    const ops = await listOutbox(db);
    expect(ops.map((o) => o.kind)).toEqual(['ticket.create', 'ticket.attach_image']);
    const blob = await db.blobs.get(ops[1]!.blobId!);
    expect(new Uint8Array(blob!.bytes)).toEqual(new Uint8Array(png()));
    expect(await db.tickets.get(id)).toMatchObject({ include_ticket_image: true, pendingOps: 2 });
  });

  it('refuses an attachment that is not png, jpg or pdf, writing nothing', async () => {
    db = freshDb();
    await expect(createManualTicket(db, expenseForm(), CTX, { bytes: new ArrayBuffer(4), type: 'text/plain', name: 'a.txt' }))
      .rejects.toThrow(MSG.attachmentType);
    expect(await db.tickets.count()).toBe(0);
  });
});

describe('storage full', () => {
  it('a quota error becomes StorageFullError and nothing of the action is kept', async () => {
    db = freshDb();
    db.blobs.hook('creating', () => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    const err = await createManualTicket(db, expenseForm(), CTX, { bytes: png(), type: 'image/png', name: 'r.png' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageFullError);
    expect((err as Error).message).toBe(MSG.storageFull);
    expect(await db.tickets.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.blobs.count()).toBe(0);
  });

  it('an aborted transaction (AbortError) is storage full too, for updates', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm(), CTX);
    db.outbox.hook('creating', () => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(setTicketNote(db, id, 'nota')).rejects.toBeInstanceOf(StorageFullError);
    expect((await db.tickets.get(id))?.note).toBe('');
    expect(await countPending(db)).toBe(1);
  });
});

describe('updates', () => {
  it('type-2 tickets take only expense categories (spec §5); nothing is queued otherwise', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm(), CTX);
    expect(await setTicketCategory(db, id, 999, CATEGORIES)).toBe(false);
    expect(await setTicketCategory(db, id, 1, CATEGORIES)).toBe(false); // already that one
    expect(await setTicketCategory(db, id, 11, CATEGORIES)).toBe(true);
    expect((await db.tickets.get(id))?.tags).toEqual([{ tag_id: 11, tag_name: 'Gastos Financieros' }]);
    const ops = await listOutbox(db);
    expect(ops.map((o) => o.kind)).toEqual(['ticket.create', 'ticket.update']);
    expect(ops[1]!.payload).toEqual({ ticket: { ticket_id: id, meta_tag_id: 11 } });
    expect((await db.tickets.get(id))?.pendingOps).toBe(2);
  });

  it('income category and note: an empty note after trimming is not saved', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm({ kind: 'income', category: '1' }), CTX);
    expect(await setIncomeCategory(db, id, 5)).toBe(true);
    expect(await setTicketNote(db, id, '   ')).toBe(false);
    expect(await setTicketNote(db, id, ' pagado ')).toBe(true);
    await expect(setTicketNote(db, id, 'x'.repeat(501))).rejects.toThrow(MSG.noteTooLong);
    expect(await db.tickets.get(id)).toMatchObject({ income_meta_tag_id: 5, note: 'pagado' });
    expect((await listOutbox(db)).map((o) => o.payload)).toEqual([
      expect.anything(),
      { ticket: { ticket_id: id, income_meta_tag_id: 5 } },
      { ticket: { ticket_id: id, notes: 'pagado' } },
    ]);
    expect(await setTicketNote(db, 'no-such-ticket', 'x')).toBe(false);
  });

  it('attachTicketImage takes images only, by their bytes, up to 2 MB', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm(), CTX);
    const pdf = new TextEncoder().encode('%PDF-1.4').buffer as ArrayBuffer;
    await expect(attachTicketImage(db, id, { bytes: pdf, type: 'application/pdf', name: 'a.pdf', size: 8 })).rejects.toThrow(MSG.imageNotImage);
    await expect(attachTicketImage(db, id, { bytes: pdf, type: 'image/png', name: 'a.png', size: 8 })).rejects.toThrow(MSG.imageNotImage);
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(new Uint8Array(png()));
    await expect(attachTicketImage(db, id, { bytes: big.buffer, type: 'image/png', name: 'b.png', size: big.byteLength }))
      .rejects.toThrow(MSG.imageTooLarge);
    expect(await attachTicketImage(db, id, image())).toBe(true);
    expect((await db.tickets.get(id))?.include_ticket_image).toBe(true);
    expect(await db.blobs.count()).toBe(1);
  });
});

describe('deleteTickets', () => {
  it('a ticket never sent just disappears with its queued operations and bytes', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm(), CTX, { bytes: png(), type: 'image/png', name: 'r.png' });
    await setTicketNote(db, id, 'nota');
    expect(await deleteTickets(db, [id])).toBe(1);
    expect(await db.tickets.count()).toBe(0);
    expect(await countPending(db)).toBe(0);
    expect(await db.blobs.count()).toBe(0);
  });

  it('a ticket the server knows gets one delete operation; discarding it brings the rows back', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    const b = await createManualTicket(db, expenseForm({ amount: '5' }), CTX);
    await db.outbox.clear(); // as if both creates were acknowledged
    await db.tickets.bulkUpdate([{ key: a, changes: { syncState: 'synced', pendingOps: 0 } }, { key: b, changes: { syncState: 'synced', pendingOps: 0 } }]);
    expect(await deleteTickets(db, [a, b, a])).toBe(2);
    const [op] = await listOutbox(db);
    expect(op).toMatchObject({ kind: 'ticket.delete', ticketIds: [a, b], payload: { tickets: [a, b] }, label: 'Eliminar 2 tickets' });
    expect(await db.tickets.count()).toBe(0);
    expect(await discardOp(db, op!.opId)).toBe(true);
    expect((await db.tickets.toArray()).map((t) => t.ticket_id).sort()).toEqual([a, b].sort());
    expect(await countPending(db)).toBe(0);
  });
});

describe('discard and retry', () => {
  it('discarding a never-sent create removes the ticket and everything queued after it', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm(), CTX, { bytes: png(), type: 'image/png', name: 'r.png' });
    const other = await createManualTicket(db, expenseForm({ amount: '9' }), CTX);
    await setTicketNote(db, id, 'nota');
    const create = (await listOutbox(db)).find((o) => o.ticketId === id && o.kind === 'ticket.create')!;
    expect(await discardOp(db, create.opId)).toBe(true);
    expect(await db.tickets.get(id)).toBeUndefined();
    expect(await db.blobs.count()).toBe(0);
    expect((await listOutbox(db)).map((o) => o.ticketId)).toEqual([other]);
  });

  it('discarding an update reverts the field unless a later queued update changes it again', async () => {
    db = freshDb();
    const id = await createManualTicket(db, expenseForm({ note: 'original' }), CTX);
    await setTicketNote(db, id, 'primera');
    await setTicketCategory(db, id, 4, CATEGORIES);
    await setTicketNote(db, id, 'segunda');
    const ops = await listOutbox(db);
    expect(await discardOp(db, ops[1]!.opId)).toBe(true); // first note: a later note remains
    expect((await db.tickets.get(id))?.note).toBe('segunda');
    expect(await discardOp(db, ops[2]!.opId)).toBe(true); // category: nothing later
    expect((await db.tickets.get(id))?.tags).toEqual([{ tag_id: 1, tag_name: 'Alimentos y bebidas' }]);
    expect((await db.tickets.get(id))?.pendingOps).toBe(2);
  });

  it('an operation being sent cannot be discarded; a parked one can be retried', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const [op] = await listOutbox(db);
    await db.outbox.update(op!.seq!, { status: 'inflight', leaseUntil: Date.now() + 60_000 });
    expect(await discardOp(db, op!.opId)).toBe(false);
    expect(await retryOp(db, op!.opId)).toBe(false);
    await db.outbox.update(op!.seq!, { status: 'failed', leaseUntil: 0, lastError: 'x', lastStatus: 422, nextAttemptAt: 99 });
    expect(await retryOp(db, op!.opId)).toBe(true);
    expect((await listOutbox(db))[0]).toMatchObject({ status: 'pending', lastError: null, lastStatus: null, nextAttemptAt: 0 });
  });
});

describe('month queries', () => {
  it('[rfc+month+received_at] gives a month newest first, 10 per page', async () => {
    db = freshDb();
    const ids: string[] = [];
    for (let d = 1; d <= 25; d++) {
      ids.push(await createManualTicket(db, expenseForm({ date: `2026/10/${String(d).padStart(2, '0')}`, amount: String(d) }), CTX));
    }
    await createManualTicket(db, expenseForm({ date: '2026/11/01' }), CTX);
    await createManualTicket(db, expenseForm({ date: '2026/10/15' }), { ...CTX, rfc: RFC2 });
    const first = await monthTickets(db, RFC, '2026-10');
    expect(first.total).toBe(25);
    expect(first.rows.map((r) => r.amount)).toEqual(['25.00', '24.00', '23.00', '22.00', '21.00', '20.00', '19.00', '18.00', '17.00', '16.00']);
    const last = await monthTickets(db, RFC, '2026-10', 3);
    expect(last.rows.map((r) => r.amount)).toEqual(['5.00', '4.00', '3.00', '2.00', '1.00']);
    expect(last.rows.every((r) => r.rfc === RFC && r.month === '2026-10')).toBe(true);
  });
});
