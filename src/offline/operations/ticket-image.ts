// ticket.attach_image: a ticket's image (or the panel's attachment) sent as multipart images[0] from
// the bytes kept in the blobs table; the ticket shows it at once, and a discard hides it again.
import { newId } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import { ATTACHMENT_MAX_BYTES, IMAGE_TYPES } from '../../domain/spending-form';
import type { Ticket } from '../../domain/ticket';
import type { AppDb, BlobRow, OutboxRow, TicketRow } from '../db';
import { requestDrain } from '../drain-signal';
import { guardStorage, makeOp, refreshPending } from '../outbox';
import { appendBlob, describeTicket, revertFields, type Operation } from './operation';

export const ticketImage: Operation = {
  request(op, blobs, ctx) {
    const form = new FormData();
    appendBlob(form, 'images[0]', blobs[0] as BlobRow);
    return new Request(ctx.url(`/tickets/${encodeURIComponent(op.ticketId)}/attach_image`), { method: 'POST', headers: ctx.headers, body: form });
  },
  changedFields: () => ['include_ticket_image'],
  undo: (db, op, { laterFields }) => revertFields(db, op, laterFields),
  failureMessage: MSG.imageUploadFailed,
  ticketGone: true,
};

export interface Attachment {
  bytes: ArrayBuffer;
  type: string;
  name: string;
}

export interface ImageFile extends Attachment {
  size: number;
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

export function newBlob(file: Attachment): BlobRow {
  return { id: newId(), bytes: file.bytes, type: file.type, name: file.name || 'imagen', size: file.bytes.byteLength };
}

export function imageOp(row: TicketRow, blob: BlobRow, now: number, revert: Partial<Ticket>): OutboxRow {
  return makeOp(
    {
      kind: 'ticket.attach_image',
      ticketId: row.ticket_id,
      payload: { field: 'images[0]', name: blob.name, type: blob.type },
      blobId: blob.id,
      rfc: row.rfc,
      label: `Imagen del ${describeTicket(row)}`,
      revert,
    },
    now,
  );
}

/** Images only (png, jpeg, webp, gif; by their bytes), up to 2 MB; else throws the Spanish message. */
export async function attachTicketImage(db: AppDb, ticketId: string, file: ImageFile): Promise<boolean> {
  checkImage(file);
  const now = Date.now();
  const blob = newBlob(file);
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
