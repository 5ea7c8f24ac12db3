// 'Importar CFDIs' offline first (DESIGN §4): a batch of checked files becomes ONE outbox operation
// (files.upload) whose bytes wait in the blobs table as ArrayBuffers, written in one transaction; the
// drain sends it as multipart with its Idempotency-Key when there is a connection.
import { checkImportFile, IMPORT_HEAD_BYTES, IMPORT_MAX_FILES } from '../../domain/import-files';
import { newId } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import type { AppDb, BlobRow } from '../db';
import { requestDrain } from '../drain-signal';
import { guardStorage, makeOp } from '../outbox';
import { announceUpload } from '../upload-signal';
import { appendBlob, type Operation } from './operation';

/** What the drain needs to build the request; the files themselves are the operation's blobIds. */
export interface UploadPayload {
  userId: string | number;
  /** The account chosen in the dashboard; the server files the CFDI under it. */
  rfc: string;
}

export const filesUpload: Operation = {
  // 'Importar CFDIs' (DESIGN §3): one part named `file` per file, and the account chosen.
  request(op, blobs, ctx) {
    const { userId, rfc } = op.payload as UploadPayload;
    const form = new FormData();
    if (rfc) form.append('rfc', rfc);
    for (const b of blobs) appendBlob(form, 'file', b);
    return new Request(ctx.url(`/api/v3/users/${encodeURIComponent(String(userId))}/files`), { method: 'POST', headers: ctx.headers, body: form });
  },
  changedFields: () => [],
  // The import dialog learns the server's ids of the files (for their statuses) from the answer.
  announce: (op, body) => announceUpload(op.opId, body),
  undo: async () => undefined, // nothing was shown before the server answered; the bytes go with the row
  failureMessage: MSG.importFailed,
  ticketGone: false,
};

export interface UploadFile {
  bytes: ArrayBuffer;
  name: string;
  type: string;
}

export interface QueuedUpload {
  opId: string;
  /** The blob id of each file, in the order given. */
  blobIds: string[];
}

/** "Importación de factura.xml" / "Importación de 3 archivos": how 'Pendientes de envío' names it. */
export function uploadLabel(names: readonly string[]): string {
  return names.length === 1 ? `Importación de ${names[0] as string}` : `Importación de ${names.length} archivos`;
}

/**
 * Queues one batch. The dialog checked the files already; they are checked again here so that no
 * path into the outbox can queue a file the server would refuse for its type, size or count.
 */
export async function queueUpload(db: AppDb, ctx: { userId: string | number; rfc: string }, files: readonly UploadFile[]): Promise<QueuedUpload> {
  if (files.length === 0) throw new Error(MSG.importFailed);
  if (files.length > IMPORT_MAX_FILES) throw new Error(MSG.importTooMany);
  for (const f of files) {
    const check = checkImportFile({ name: f.name, size: f.bytes.byteLength, head: new Uint8Array(f.bytes, 0, Math.min(IMPORT_HEAD_BYTES, f.bytes.byteLength)) });
    if (!check.ok) throw new Error(check.message);
  }
  const blobs: BlobRow[] = files.map((f) => ({ id: newId(), bytes: f.bytes, type: f.type || 'application/octet-stream', name: f.name, size: f.bytes.byteLength }));
  const names = files.map((f) => f.name);
  const payload: UploadPayload = { userId: ctx.userId, rfc: ctx.rfc };
  // Not a ticket: its own key, so the batch waits for nothing and nothing waits for it.
  const op = makeOp({ kind: 'files.upload', ticketId: `upload:${newId()}`, payload, blobIds: blobs.map((b) => b.id), rfc: ctx.rfc, label: uploadLabel(names) });
  await guardStorage(() =>
    db.transaction('rw', db.outbox, db.blobs, async () => {
      await db.blobs.bulkAdd(blobs);
      await db.outbox.add(op);
    }),
  );
  requestDrain();
  return { opId: op.opId, blobIds: op.blobIds ?? [] };
}
