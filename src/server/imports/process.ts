// The import job's work: takes a request's uploads from 'recibido' to 'importado',
// 'duplicado' or 'rechazado'. XML files import in batches (import-cfdi.ts); a zip is read from its
// central directory with its limits (zip.ts) and each entry becomes a child upload row; a PDF is
// matched to a receipt by UUID or becomes a ticket for review. Statuses commit with the rows they
// describe, so a job retried after a crash only redoes what had not committed.
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { newIdAt } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import { CFDI_COMPANY_ID, TICKET_TYPE } from '../../domain/ticket';
import type { Db } from '../db/client';
import { clients, receipts, tickets, uploads } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { receiptKeys } from '../cfdi/receipts';
import { errorSummary } from '../lib/error-summary';
import { bulkInsert } from './bulk-insert';
import { uploadsChanged } from './changes';
import { markKnownCancellations } from '../cfdi/cancellation';
import { importCfdiBatch, runLimited, type Account, type Outcome, type XmlItem } from './import-cfdi';
import { parsePool, type FileParser } from './parse-pool';
import { sniffUpload } from './sniff';
import { isPackKey, openPack, type PackReader } from './upload-pack';
import { listZip, readEntry, type ZipEntry } from './zip';

/** XML files per transaction: big enough for multi-row INSERTs to pay, small enough to bound memory. */
export const IMPORT_BATCH = 250;
/** Parallel reads and deletes in the files store. */
const FILE_CONCURRENCY = 8;
/** Bytes of XML files read into memory at once (a request may hold 100 XML files of 2 MB). */
const XML_CHUNK_BYTES = 32 * 1024 * 1024;
const PENDIENTE = 2;
const UUID_IN_NAME = /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/i;

export interface ImportDeps {
  db: Db;
  files: FileStore;
  clock: () => Date;
  /** Told the receipts a job imported, once it is done (main.ts: the SAT status check, when enabled). */
  afterImport?: (receiptIds: readonly string[]) => Promise<void>;
  /** Reads the untrusted files (default: the process's worker pool, with its time budget). */
  parser?: FileParser;
}

export interface StatusChange {
  status: 'importado' | 'duplicado' | 'rechazado';
  reason: string | null;
  ticketIds: string[];
}

type UploadRow = typeof uploads.$inferSelect;

/**
 * One UPDATE for many rows' statuses; clears the file key (the file is then dropped). The rows travel as
 * ONE jsonb parameter (as in bulk-insert.ts), not four parameters a row.
 */
export async function writeStatuses(db: Db, changes: Map<string, StatusChange>, now: Date): Promise<void> {
  const list = [...changes];
  for (let i = 0; i < list.length; i += 500) {
    const json = JSON.stringify(list.slice(i, i + 500).map(([id, c]) => ({ id, status: c.status, reason: c.reason, ticket_ids: c.ticketIds })));
    await db.execute(sql`
      UPDATE uploads SET status = v.status, reason = v.reason, ticket_ids = v.ticket_ids, file_key = NULL, updated_at = ${now.toISOString()}::timestamptz
      FROM jsonb_to_recordset(${json}::jsonb) AS v(id uuid, status text, reason text, ticket_ids jsonb)
      WHERE uploads.id = v.id`);
  }
}

/** A zip entry's row id: the same on every run of the job, so a retry finds the rows it made. */
function entryId(parentId: string, index: number): string {
  const h = createHash('sha256').update(`${parentId}:${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A file name kept as a label: no control characters, at most 255 characters. */
export function labelOf(name: string): string {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  return name.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255) || 'archivo';
}

/** The accounts a CFDI may go to (all the user's, or the chosen one) and, with one chosen, the user's others. */
async function accountsFor(db: Db, userId: number, clientId: number | null): Promise<{ accounts: Account[]; others: Account[] }> {
  const rows = await db.select({ clientId: clients.id, rfc: clients.rfc }).from(clients).where(eq(clients.userId, userId));
  if (clientId === null) return { accounts: rows, others: [] };
  return { accounts: rows.filter((r) => r.clientId === clientId), others: rows.filter((r) => r.clientId !== clientId) };
}

class Run {
  /** uuid → receipt ids of this user, from this run's XML imports (for PDFs in the same zip). */
  readonly receiptsByUuid = new Map<string, { receiptIds: string[]; ticketIds: string[] }>();
  /** Receipts of the CFDI this run imported (not those found as duplicates). */
  readonly imported = new Set<string>();

  constructor(
    readonly deps: ImportDeps,
    readonly userId: number,
    readonly accounts: Account[],
    /** With an account chosen: the user's other accounts, which take a CFDI that names them instead. */
    readonly others: Account[] = [],
  ) {}

  get parser(): FileParser {
    return this.deps.parser ?? parsePool();
  }

  /** The write of the last batch queued (queueXml); each waits for the one before it. */
  private writing: Promise<void> = Promise.resolve();

  /**
   * Starts reading these XML files on the parse workers now, and writes them once every batch queued
   * before them is written: the workers read the next batch while this one goes into the database (the
   * two took turns before, leaving the CPU half idle). Resolves once the batch queued before these is
   * written, so at most two batches are held at a time; `drainXml` waits for the rest. `onWritten` gets
   * each batch's outcomes, in order.
   */
  async queueXml(items: XmlItem[], onWritten?: (outcomes: Map<string, Outcome>) => void): Promise<void> {
    const reading = this.readXml(items);
    reading.catch(() => undefined); // awaited below, after the batches before it
    const before = this.writing;
    const mine = (async () => {
      await before;
      await reading;
      const out = await this.writeXml(items);
      onWritten?.(out);
    })();
    mine.catch(() => undefined); // its failure reaches the caller through the next queueXml or drainXml
    this.writing = mine;
    await before;
  }

  /** Waits until every queued batch is written (throws what a write threw). */
  async drainXml(): Promise<void> {
    await this.writing;
  }

  /** Reads the files off the event loop, all at once (the pool queues them); one over budget is refused. */
  private async readXml(items: XmlItem[]): Promise<void> {
    await Promise.all(
      items.map(async (item) => {
        const read = await this.parser.readCfdi(item.bytes);
        item.read = read === 'timeout' ? { ok: false, reason: MSG.importParseTimeout } : read;
      }),
    );
  }

  private async writeXml(items: XmlItem[]): Promise<Map<string, Outcome>> {
    const all = new Map<string, Outcome>();
    for (let i = 0; i < items.length; i += IMPORT_BATCH) {
      const out = await importCfdiBatch(
        this.deps.db,
        this.deps.files,
        this.userId,
        this.accounts,
        items.slice(i, i + IMPORT_BATCH),
        this.deps.clock(),
        async (tx, outcomes) => {
          await writeStatuses(tx, outcomes, this.deps.clock());
          // A CFDI already known cancelled or replaced (a refacturación) leaves the totals as it arrives:
          // marked in the batch's transaction, so 'importado' and the mark commit together and no reader
          // sees the CFDI imported and still counted. (It only reads the files store: nothing to undo.)
          const arrived = [...outcomes.values()].flatMap((o) => (o.uuid && o.receiptIds.length > 0 ? [o.uuid] : []));
          await markKnownCancellations(tx, this.deps.files, arrived, this.deps.clock());
        },
        this.others,
      );
      for (const [id, o] of out) {
        all.set(id, o);
        if (o.uuid && o.receiptIds.length > 0) this.receiptsByUuid.set(o.uuid, { receiptIds: o.receiptIds, ticketIds: o.ticketIds });
        if (o.status === 'importado') for (const r of o.receiptIds) this.imported.add(r);
      }
      uploadsChanged(this.userId);
    }
    return all;
  }

  /** Attaches a PDF to receipts (as their imported PDF). */
  async attachPdf(uploadId: string, bytes: Uint8Array, receiptIds: string[], ticketIds: string[]): Promise<void> {
    const now = this.deps.clock();
    for (const id of receiptIds) await this.deps.files.put(receiptKeys(this.userId, id).pdf, bytes);
    await this.deps.db.transaction(async (tx) => {
      for (const id of receiptIds) {
        await tx
          .update(receipts)
          .set({ pdfKey: receiptKeys(this.userId, id).pdf, pdfSize: bytes.byteLength, pdfSource: 'imported' })
          .where(and(eq(receipts.id, id), eq(receipts.userId, this.userId)));
      }
      await writeStatuses(tx, new Map([[uploadId, { status: 'importado', reason: null, ticketIds }]]), now);
    });
  }

  /** A PDF on its own: attached to the user's receipt with a UUID it shows, else a ticket for review (or refused). */
  async importPdf(uploadId: string, bytes: Uint8Array, chosen: number | null): Promise<void> {
    const facts = await this.parser.pdfFacts(bytes);
    if (facts === 'timeout') {
      await writeStatuses(this.deps.db, new Map([[uploadId, { status: 'rechazado', reason: MSG.importParseTimeout, ticketIds: [] }]]), this.deps.clock());
      return;
    }
    for (const uuid of facts.uuids) {
      const known = this.receiptsByUuid.get(uuid);
      if (known) return this.attachPdf(uploadId, bytes, known.receiptIds, known.ticketIds);
      const rows = await this.deps.db
        .select({ id: receipts.id, ticketId: tickets.id })
        .from(receipts)
        .leftJoin(tickets, eq(tickets.receiptId, receipts.id))
        .where(and(eq(receipts.userId, this.userId), eq(receipts.uuid, uuid), chosen === null ? sql`true` : eq(receipts.clientId, chosen)));
      if (rows.length > 0) {
        return this.attachPdf(uploadId, bytes, [...new Set(rows.map((r) => r.id))], rows.flatMap((r) => (r.ticketId ? [r.ticketId] : [])));
      }
    }
    const account = this.accounts.find((a) => chosen === a.clientId) ?? this.accounts.find((a) => facts.rfcs.includes(a.rfc.toUpperCase()));
    const now = this.deps.clock();
    if (!account) {
      await writeStatuses(this.deps.db, new Map([[uploadId, { status: 'rechazado', reason: MSG.importPdfNoMatch, ticketIds: [] }]]), now);
      return;
    }
    const ticketId = newIdAt(now.getTime());
    const key = `ticket-images/${ticketId}/${randomUUID()}.pdf`;
    await this.deps.files.put(key, bytes);
    await this.deps.db.transaction(async (tx) => {
      await tx.insert(tickets).values({
        id: ticketId,
        userId: this.userId,
        clientId: account.clientId,
        // Spending: a PDF alone is far more often a purchase than an invoice the user issued.
        type: TICKET_TYPE.expense,
        statusId: PENDIENTE,
        companyId: CFDI_COMPANY_ID,
        amount: facts.total ?? '0',
        receivedAt: now,
        note: MSG.importPdfReviewNote,
        imageKey: key,
        imageType: 'application/pdf',
        imageSize: bytes.byteLength,
        createdAt: now,
        updatedAt: now,
      });
      await writeStatuses(tx, new Map([[uploadId, { status: 'importado', reason: null, ticketIds: [ticketId] }]]), now);
    });
  }

  /**
   * The zip's own status from its entries' (read back: a retried job counts what the first run did):
   * 'importado' when at least one entry imported (the entries carry their own statuses), else
   * 'duplicado' when some were already there, else 'rechazado' — nothing of it could be imported.
   */
  async zipOutcome(zipId: string, entryCount: number): Promise<StatusChange> {
    if (entryCount === 0) return { status: 'rechazado', reason: MSG.importZipEmpty, ticketIds: [] };
    const rows = await this.deps.db
      .select({ status: uploads.status, n: sql<number>`count(*)::int` })
      .from(uploads)
      .where(eq(uploads.parentId, zipId))
      .groupBy(uploads.status);
    const has = (status: string) => rows.some((r) => r.status === status && r.n > 0);
    if (has('importado')) return { status: 'importado', reason: null, ticketIds: [] };
    if (has('duplicado')) return { status: 'duplicado', reason: null, ticketIds: [] };
    return { status: 'rechazado', reason: MSG.importZipNothingImported, ticketIds: [] };
  }

  /**
   * A zip's entries become child rows (made once: stable ids), then XMLs import in batches, a zip
   * inside (one level) is opened the same way, and PDFs attach to the XML of the same UUID or base
   * name — else they are handled as PDFs on their own.
   */
  async importZip(zip: UploadRow, bytes: Uint8Array, depth: number): Promise<void> {
    const now = this.deps.clock();
    const listing = listZip(bytes);
    if (!listing.ok) {
      await writeStatuses(this.deps.db, new Map([[zip.id, { status: 'rechazado', reason: listing.reason, ticketIds: [] }]]), now);
      uploadsChanged(this.userId);
      return;
    }
    const entries = listing.entries.map((e, i) => ({ e, id: entryId(zip.id, i) })).filter((x) => !x.e.directory);
    await bulkInsert(
      this.deps.db,
      uploads,
      entries.map(({ e, id }) => ({
        id,
        userId: this.userId,
        clientId: zip.clientId,
        parentId: zip.id,
        name: labelOf(e.name),
        kind: e.name.toLowerCase().endsWith('.pdf') ? 'pdf' : e.name.toLowerCase().endsWith('.zip') ? 'zip' : 'xml',
        size: e.size,
        status: 'procesando',
        createdAt: now,
        updatedAt: now,
      })),
      { onConflictDoNothing: true },
    );
    const done = new Set<string>();
    for (let i = 0; i < entries.length; i += 1000) {
      const rows = await this.deps.db
        .select({ id: uploads.id })
        .from(uploads)
        .where(and(inArray(uploads.id, entries.slice(i, i + 1000).map((x) => x.id)), inArray(uploads.status, ['importado', 'duplicado', 'rechazado'])));
      for (const r of rows) done.add(r.id);
    }
    uploadsChanged(this.userId);

    const refusals = new Map<string, StatusChange>();
    const refuse = (id: string, reason: string) => refusals.set(id, { status: 'rechazado', reason, ticketIds: [] });
    const pdfs: { id: string; e: ZipEntry }[] = [];
    const xmlBase = new Map<string, string>(); // base name without extension → upload id
    let xmlBatch: XmlItem[] = [];
    const outcomes = new Map<string, Outcome>();
    const flush = async () => {
      if (xmlBatch.length === 0) return;
      const batch = xmlBatch;
      xmlBatch = [];
      await this.queueXml(batch, (out) => {
        for (const [id, o] of out) outcomes.set(id, o);
      });
    };
    for (const { e, id } of entries) {
      const stem = e.base.replace(/\.[^.]*$/, '').toLowerCase();
      if (done.has(id)) continue;
      if (e.refused) {
        refuse(id, e.refused);
        continue;
      }
      // Only the XML's file kind needs its bytes now; PDFs are read when matched.
      const data = await readEntry(bytes, e);
      if (!data) {
        refuse(id, MSG.importZipCorrupt);
        continue;
      }
      const kind = sniffUpload(data);
      if (kind === 'xml') {
        xmlBase.set(stem, id);
        xmlBatch.push({ uploadId: id, bytes: data });
        if (xmlBatch.length >= IMPORT_BATCH) await flush();
      } else if (kind === 'pdf') pdfs.push({ id, e });
      else if (kind === 'zip') {
        if (depth >= 1) refuse(id, MSG.importZipNested);
        else {
          const [row] = await this.deps.db.select().from(uploads).where(eq(uploads.id, id));
          if (row) await this.importZip(row, data, depth + 1);
        }
      } else refuse(id, MSG.importFileType);
    }
    await flush();
    await this.drainXml(); // the PDFs below look for the XML written with them
    if (refusals.size > 0) await writeStatuses(this.deps.db, refusals, this.deps.clock());
    for (const { e, id } of pdfs) {
      const data = await readEntry(bytes, e);
      if (!data) {
        await writeStatuses(this.deps.db, new Map([[id, { status: 'rechazado', reason: MSG.importZipCorrupt, ticketIds: [] }]]), this.deps.clock());
        continue;
      }
      const byUuid = UUID_IN_NAME.exec(e.base)?.[0]?.toUpperCase();
      const fromUuid = byUuid ? this.receiptsByUuid.get(byUuid) : undefined;
      const sibling = outcomes.get(xmlBase.get(e.base.replace(/\.[^.]*$/, '').toLowerCase()) ?? '');
      const match = fromUuid ?? (sibling && sibling.receiptIds.length > 0 ? sibling : undefined);
      if (match) await this.attachPdf(id, data, match.receiptIds, match.ticketIds);
      else await this.importPdf(id, data, zip.clientId);
    }
    await writeStatuses(this.deps.db, new Map([[zip.id, await this.zipOutcome(zip.id, entries.length)]]), this.deps.clock());
    uploadsChanged(this.userId);
  }
}

/** The job: the uploads of one request (only those not finished yet: a retry redoes nothing). */
export async function processUploads(deps: ImportDeps, userId: number, uploadIds: string[]): Promise<void> {
  if (uploadIds.length === 0) return;
  // Taken and marked 'procesando' in one statement (the rows as they were, but for that status).
  const rows = await deps.db
    .update(uploads)
    .set({ status: 'procesando', updatedAt: deps.clock() })
    .where(and(eq(uploads.userId, userId), inArray(uploads.id, uploadIds), inArray(uploads.status, ['recibido', 'procesando'])))
    .returning();
  if (rows.length === 0) return;
  uploadsChanged(userId);

  const imported: string[] = [];
  const byClient = new Map<number | null, UploadRow[]>();
  for (const r of rows) byClient.set(r.clientId, [...(byClient.get(r.clientId) ?? []), r]);
  // A request's files are one pack (upload-pack.ts), opened once and read a file at a time; a file stored
  // on its own is read alone.
  const packs = new Map<string, Promise<PackReader | null>>();
  const stored = async (r: UploadRow): Promise<Uint8Array | null> => {
    if (!r.fileKey) return null;
    if (!isPackKey(r.fileKey)) return deps.files.get(r.fileKey);
    let p = packs.get(r.fileKey);
    if (!p) {
      p = openPack(deps.files, r.fileKey);
      packs.set(r.fileKey, p);
    }
    return (await (await p)?.get(r.id)) ?? null;
  };
  for (const [clientId, group] of byClient) {
    const { accounts, others } = await accountsFor(deps.db, userId, clientId);
    const run = new Run(deps, userId, accounts, others);
    const missing = new Map<string, StatusChange>();
    // The XML files are read in parallel (the store's reads are I/O), kept in upload order, a chunk of at
    // most XML_CHUNK_BYTES (or IMPORT_BATCH files) at a time.
    const xmlRows = group.filter((g) => g.kind === 'xml');
    for (let from = 0; from < xmlRows.length; ) {
      let to = from;
      for (let bytes = 0; to < xmlRows.length && to - from < IMPORT_BATCH && (to === from || bytes + xmlRows[to]!.size <= XML_CHUNK_BYTES); to++) bytes += xmlRows[to]!.size;
      const chunk = xmlRows.slice(from, to);
      from = to;
      const read: (Uint8Array | null)[] = new Array(chunk.length).fill(null);
      await runLimited([...chunk.keys()], FILE_CONCURRENCY, async (i) => {
        read[i] = await stored(chunk[i]!);
      });
      const xmls: XmlItem[] = [];
      chunk.forEach((r, i) => {
        const bytes = read[i];
        if (bytes) xmls.push({ uploadId: r.id, bytes });
        else missing.set(r.id, { status: 'rechazado', reason: MSG.importFailed, ticketIds: [] });
      });
      await run.queueXml(xmls);
    }
    await run.drainXml();
    for (const r of group.filter((g) => g.kind !== 'xml')) {
      const bytes = await stored(r);
      if (!bytes) missing.set(r.id, { status: 'rechazado', reason: MSG.importFailed, ticketIds: [] });
      else if (r.kind === 'zip') await run.importZip(r, bytes, 0);
      else await run.importPdf(r.id, bytes, clientId);
    }
    if (missing.size > 0) await writeStatuses(deps.db, missing, deps.clock());
    imported.push(...run.imported);
  }
  // Every file of these rows is done with (their statuses are final): each stored file or pack, once.
  const keys = [...new Set(rows.flatMap((r) => (r.fileKey ? [r.fileKey] : [])))];
  await runLimited(keys, FILE_CONCURRENCY, (key) => deps.files.delete(key).catch(() => undefined));
  uploadsChanged(userId);
  if (deps.afterImport && imported.length > 0) {
    // The import stands either way: a failed hand-over is left to the hourly SAT sweep.
    await deps.afterImport(imported).catch((err: unknown) => console.error('[import] sin aviso al consultar el SAT:', errorSummary(err)));
  }
}
