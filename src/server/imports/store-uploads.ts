// Files → 'recibido' upload rows, durably: the one way files enter the import, used by
// the upload route and by anything else that imports files for a user (e.g. the SAT sync). Each file is
// checked (2 MB; XML, PDF or ZIP by its content); the accepted ones are stored as ONE pack in the files
// store (upload-pack.ts) BEFORE their rows are inserted, so an accepted upload survives a crash before
// its job runs. The HTTP route hands files over one by one as they arrive (UploadIntake), so a request
// is never held whole in memory. `importFiles` also runs the import at once (no queue): for jobs that
// are already durable.
import { sql } from 'drizzle-orm';
import { newId } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import { ATTACHMENT_MAX_BYTES } from '../../domain/spending-form';
import { uploads } from '../db/schema';
import { bulkInsert } from './bulk-insert';
import { uploadsChanged } from './changes';
import { labelOf, processUploads, type ImportDeps } from './process';
import { sniffUpload } from './sniff';
import { QuotaExceeded, storageUsed } from './upload-limits';
import { packKeyOf, PackWriter } from './upload-pack';

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

/** A file of an upload: its bytes, or null when it is over FILE_MAX_BYTES (then never read whole). */
export interface ArrivedFile {
  name: string;
  size: number;
  bytes: Uint8Array | null;
}

type Db = ImportDeps['db'];

/**
 * The files of one upload as they arrive: each is checked and, when accepted, appended to the request's
 * pack in the files store at once (so only the file in hand is in memory); finish() then records them
 * all. abort() leaves nothing behind. With `quotaBytes`, finish() refuses (QuotaExceeded, nothing
 * stored) when the user's kept uploads would pass it: checked under a per-user lock with the insert.
 */
export class UploadIntake {
  private readonly rows: (typeof uploads.$inferInsert)[] = [];
  private readonly fileKey: string;
  private writer: Promise<PackWriter> | null = null;
  private accepted = 0;
  private readonly now: Date;

  constructor(
    private readonly deps: Pick<ImportDeps, 'db' | 'files' | 'clock'>,
    private readonly userId: number,
    private clientId: number | null,
  ) {
    this.now = deps.clock();
    this.fileKey = packKeyOf(userId, newId());
  }

  get count(): number {
    return this.rows.length;
  }

  /** Bytes of the files accepted so far. */
  get acceptedBytes(): number {
    return this.accepted;
  }

  /** The account the files go to, when known only after some arrived (a form field after them). */
  setClient(clientId: number | null): void {
    this.clientId = clientId;
  }

  async add(file: ArrivedFile): Promise<void> {
    const id = newId();
    const name = labelOf(file.name);
    // Every row carries the same keys: bulkInsert writes a key some rows lack as NULL.
    const base = { id, userId: this.userId, clientId: null as number | null, name, size: file.size, createdAt: this.now, updatedAt: this.now };
    if (file.size > FILE_MAX_BYTES || !file.bytes) {
      this.rows.push({ ...base, kind: 'xml', fileKey: null, status: 'rechazado', reason: MSG.importFileTooLarge });
      return;
    }
    const kind = sniffUpload(file.bytes);
    if (!kind) {
      this.rows.push({ ...base, kind: 'xml', fileKey: null, status: 'rechazado', reason: MSG.importFileType });
      return;
    }
    this.writer ??= PackWriter.open(this.deps.files, this.fileKey);
    await (await this.writer).add(id, file.bytes);
    this.accepted += file.size;
    this.rows.push({ ...base, kind, fileKey: this.fileKey, status: 'recibido', reason: null });
  }

  async abort(): Promise<void> {
    const w = this.writer;
    this.writer = null;
    if (w) await (await w).abort().catch(() => undefined);
  }

  async finish(opts: { quotaBytes?: number } = {}): Promise<StoredUpload[]> {
    const w = this.writer;
    this.writer = null;
    // The pack is complete in the store BEFORE its rows exist: an accepted upload survives a crash.
    if (w) await (await w).commit();
    for (const r of this.rows) r.clientId = this.clientId;
    try {
      await this.deps.db.transaction(async (tx) => {
        if (opts.quotaBytes !== undefined && this.accepted > 0) {
          // One upload of this user at a time past this point, so two cannot both fit the last space.
          await tx.execute(sql`SELECT pg_advisory_xact_lock(${QUOTA_LOCK}, ${this.userId})`);
          if ((await storageUsed(tx as unknown as Db, this.userId)) + this.accepted > opts.quotaBytes) throw new QuotaExceeded();
        }
        await bulkInsert(tx as unknown as Db, uploads, this.rows);
      });
    } catch (err) {
      if (w) await this.deps.files.delete(this.fileKey).catch(() => undefined);
      throw err;
    }
    uploadsChanged(this.userId);
    return this.rows.map((r) => ({ id: r.id!, name: r.name, status: r.status as StoredUpload['status'], reason: r.reason ?? null }));
  }
}

/** The advisory lock class of the per-user quota check (the user id is the other half). */
const QUOTA_LOCK = 0x75706c64; // 'upld'

/**
 * Checks and stores `files` as uploads of `userId` (into account `clientId`, or null: any of the
 * user's accounts the CFDI names). Answers one row per file, in order; the 'recibido' ones are the
 * ids to hand to processUploads (or to the import queue).
 */
export async function storeUploads(deps: Pick<ImportDeps, 'db' | 'files' | 'clock'>, userId: number, clientId: number | null, files: readonly IncomingFile[]): Promise<StoredUpload[]> {
  const intake = new UploadIntake(deps, userId, clientId);
  try {
    for (const file of files) {
      await intake.add({ name: file.name, size: file.size, bytes: file.size > FILE_MAX_BYTES ? null : await file.bytes() });
    }
  } catch (err) {
    await intake.abort();
    throw err;
  }
  return intake.finish();
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
