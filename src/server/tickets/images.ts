// Ticket images (spec §5 image attach, §7 attach image / ticket image): multipart in, sniffed by
// magic bytes, kept in the files store under a server-made key; served back only to the owner.
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { MSG } from '../../domain/messages';
import { ATTACHMENT_MAX_BYTES } from '../../domain/spending-form';
import type { Db } from '../db/client';
import { tickets } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { readLimited } from '../http/body';
import { sniffAttachmentType, type AttachmentType } from '../files/image-type';
import { assertCleanForm } from '../http/control-chars';
import { fail } from '../http/errors';

/** Room for the multipart boundary and part headers around a 2 MB image. */
export const MULTIPART_OVERHEAD = 16 * 1024;
export const UPLOAD_LIMIT = ATTACHMENT_MAX_BYTES + MULTIPART_OVERHEAD;
export const IMAGE_FIELD = 'images[0]';

const EXTENSION: Record<AttachmentType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'application/pdf': 'pdf' };

/** Reads an upload, giving up (413) as soon as it passes the limit, whatever Content-Length claimed. */
export async function readUpload(body: ReadableStream<Uint8Array> | null, limit = UPLOAD_LIMIT): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const bytes = await readLimited(body, limit);
  if (!bytes) throw fail(413, MSG.imageTooLarge);
  return bytes;
}

/** The attachment part of a multipart body, checked: ≤ 2 MB (413) and a real PNG, JPEG, WebP, GIF or PDF (415). */
export async function imageFromMultipart(raw: Uint8Array<ArrayBuffer>, contentType: string): Promise<{ bytes: Uint8Array; type: AttachmentType }> {
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw fail(400, MSG.badJson);
  }
  assertCleanForm(form);
  const file = form.get(IMAGE_FIELD);
  if (!file || typeof file === 'string') throw fail(400, MSG.imageNotImage);
  if (file.size > ATTACHMENT_MAX_BYTES) throw fail(413, MSG.imageTooLarge);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffAttachmentType(bytes);
  if (!type) throw fail(415, MSG.imageNotImage);
  return { bytes, type };
}

const ownLive = (userId: number, ticketId: string) =>
  and(eq(tickets.id, ticketId), eq(tickets.userId, userId), isNull(tickets.deletedAt));

export async function assertOwnTicket(db: Db, userId: number, ticketId: string): Promise<void> {
  const [row] = await db.select({ id: tickets.id }).from(tickets).where(ownLive(userId, ticketId));
  if (!row) throw fail(404, MSG.ticketNotFound);
}

/** Stores the image and points the ticket at it; a previous image is replaced (re-sending is harmless). */
export async function attachImage(db: Db, files: FileStore, userId: number, ticketId: string, image: { bytes: Uint8Array; type: AttachmentType }, now: Date): Promise<void> {
  const key = `ticket-images/${ticketId}/${randomUUID()}.${EXTENSION[image.type]}`;
  await files.put(key, image.bytes);
  let previous: string | null;
  try {
    previous = await db.transaction(async (tx) => {
      const [row] = await tx.select({ imageKey: tickets.imageKey }).from(tickets).where(ownLive(userId, ticketId)).for('update');
      if (!row) throw fail(404, MSG.ticketNotFound);
      await tx
        .update(tickets)
        .set({ imageKey: key, imageType: image.type, imageSize: image.bytes.byteLength, updatedAt: now })
        .where(eq(tickets.id, ticketId));
      return row.imageKey;
    });
  } catch (err) {
    await files.delete(key).catch(() => undefined);
    throw err;
  }
  if (previous) await files.delete(previous).catch(() => undefined);
}

export interface StoredImage {
  key: string;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** 404 unless the user's live ticket has an image (checked before a link to it is made). */
export async function assertOwnImage(db: Db, userId: number, ticketId: string): Promise<void> {
  const [row] = await db.select({ key: tickets.imageKey }).from(tickets).where(ownLive(userId, ticketId));
  if (!row?.key) throw fail(404, MSG.notFound);
}

/** The owner's live ticket's image, else 404. */
export async function readImage(db: Db, files: FileStore, userId: number, ticketId: string): Promise<StoredImage> {
  const [row] = await db
    .select({ key: tickets.imageKey, type: tickets.imageType })
    .from(tickets)
    .where(ownLive(userId, ticketId));
  if (!row?.key || !row.type) throw fail(404, MSG.notFound);
  const bytes = await files.get(row.key);
  if (!bytes) throw fail(404, MSG.notFound);
  return { key: row.key, type: row.type, bytes };
}
