// Files → 'recibido' upload rows, durably (issue 5 item 2): the one way files enter the import, used by
// the upload route and by anything else that imports files for a user (e.g. the SAT sync). Each file is
// checked (2 MB; XML, PDF or ZIP by its content); the accepted ones are stored as ONE pack in the files
// store (upload-pack.ts) BEFORE their rows are inserted, so an accepted upload survives a crash before
// its job runs. `importFiles` also runs the import at once (no queue): for jobs that are already durable.
import { v7 } from 'uuid';
import { MSG } from '../../domain/messages';
import { ATTACHMENT_MAX_BYTES } from '../../domain/spending-form';
import { uploads } from '../db/schema';
import { bulkInsert } from './bulk-insert';
import { uploadsChanged } from './changes';
import { labelOf, processUploads, type ImportDeps } from './process';
import { sniffUpload } from './sniff';
import { pack, packKeyOf } from './upload-pack';

export const MAX_FILES = 100;
export const FILE_MAX_BYTES = ATTACHMENT_MAX_BYTES;

export interface IncomingFile {
  name: string;
  /** Its size as declared; a file over FILE_MAX_BYTES is refused without reading `bytes`. */
  size: number;
  bytes: () => Promise<Uint8Array> | Uint8Array;
}

export interface StoredUpload {
  id: string;
  name: string;
  status: 'recibido' | 'rechazado';
  reason: string | null;
}

/**
 * Checks and stores `files` as uploads of `userId` (into account `clientId`, or null: any of the
 * user's accounts the CFDI names). Answers one row per file, in order; the 'recibido' ones are the
 * ids to hand to processUploads (or to the import queue).
 */
export async function storeUploads(deps: Pick<ImportDeps, 'db' | 'files' | 'clock'>, userId: number, clientId: number | null, files: readonly IncomingFile[]): Promise<StoredUpload[]> {
  const now = deps.clock();
  const rows: (typeof uploads.$inferInsert)[] = [];
  const packed: { id: string; bytes: Uint8Array }[] = [];
  const packId = v7();
  const fileKey = packKeyOf(userId, packId);
  for (const file of files) {
    const id = v7();
    const name = labelOf(file.name);
    // Every row carries the same keys: bulkInsert writes a key some rows lack as NULL.
    const base = { id, userId, clientId, name, size: file.size, createdAt: now, updatedAt: now };
    if (file.size > FILE_MAX_BYTES) {
      rows.push({ ...base, kind: 'xml', fileKey: null, status: 'rechazado', reason: MSG.importFileTooLarge });
      continue;
    }
    const bytes = await file.bytes();
    const kind = sniffUpload(bytes);
    if (!kind) {
      rows.push({ ...base, kind: 'xml', fileKey: null, status: 'rechazado', reason: MSG.importFileType });
      continue;
    }
    packed.push({ id, bytes });
    rows.push({ ...base, kind, fileKey, status: 'recibido', reason: null });
  }
  if (packed.length > 0) await deps.files.put(fileKey, pack(packed));
  await bulkInsert(deps.db, uploads, rows);
  uploadsChanged(userId);
  return rows.map((r) => ({ id: r.id!, name: r.name, status: r.status as StoredUpload['status'], reason: r.reason ?? null }));
}

/** Stores `files` as uploads of `userId` and imports them now; answers the rows (statuses as stored). */
export async function importFiles(deps: ImportDeps, userId: number, clientId: number | null, files: readonly IncomingFile[]): Promise<StoredUpload[]> {
  const rows = await storeUploads(deps, userId, clientId, files);
  await processUploads(
    deps,
    userId,
    rows.filter((r) => r.status === 'recibido').map((r) => r.id),
  );
  return rows;
}
