// Receipts (spec §3 Receipt): the CFDI behind a ticket. Rows hold the facts lists and reports need;
// the files store holds the XML byte for byte and the PDF (imported, or rendered from the XML the first
// time someone asks and then kept). Every read is scoped to the owner: another user's receipt is
// indistinguishable from a missing one.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import type { Db } from '../db/client';
import { receipts, tickets } from '../db/schema';
import type { FileStore } from '../files/file-store';
import type { CfdiData } from './read';
import { cfdiChecks } from './verify-seals';
import type { CfdiFinding, SealState } from '../../domain/ticket';
import type { CfdiTipo, ReceiptDetails } from '../../domain/ticket';
import { detailsOf } from './books';
import { fail } from '../http/errors';

/** What a stored receipt says about its CFDI (as read by src/server/cfdi/read.ts or made by issuing). */
export interface ReceiptFacts {
  uuid: string;
  version: string;
  rfcIssuer: string;
  nameIssuer: string;
  rfcReceiver: string;
  nameReceiver: string;
  /** As written in the CFDI. */
  emissionDate: string;
  total: string;
  currency: string;
  amountMxn: string;
  impTras: string;
  impRet: string;
  metodoPago: string;
  numCtaPago: string;
  /** Integrity as checked on import (cfdi/verify-seals.ts); saveReceipt checks the XML itself when absent. */
  seal?: SealState;
  sealSat?: SealState;
  /** SAT's CFDI 4.0 rules the CFDI breaks. */
  findings?: CfdiFinding[];
  /** TipoDeComprobante: what the CFDI means in the books (cfdi/books.ts); absent = 'I'. */
  tipo?: CfdiTipo;
  /** Related UUIDs, payroll period, what a payment pays (cfdi/books.ts detailsOf). */
  details?: ReceiptDetails;
}

export interface NewReceipt {
  userId: number;
  clientId: number;
  facts: ReceiptFacts;
  xml: Uint8Array;
  /** An imported PDF; absent = rendered from the XML on first request. */
  pdf?: Uint8Array;
}

const xmlKey = (userId: number, id: string) => `receipts/${userId}/${id}.xml`;
const pdfKey = (userId: number, id: string) => `receipts/${userId}/${id}.pdf`;
/** Where a receipt's files live (server-made keys). */
export const receiptKeys = (userId: number, id: string) => ({ xml: xmlKey(userId, id), pdf: pdfKey(userId, id) });

/**
 * Keeps a CFDI for a tax account; the files are written first so a row never points at nothing.
 * Returns the existing receipt's id when the account already has that UUID (`duplicate: true`).
 */
export async function saveReceipt(db: Db, files: FileStore, r: NewReceipt): Promise<{ id: string; duplicate: boolean }> {
  const uuid = r.facts.uuid.toUpperCase();
  const [existing] = await db
    .select({ id: receipts.id })
    .from(receipts)
    .where(and(eq(receipts.clientId, r.clientId), eq(receipts.uuid, uuid)));
  if (existing) return { id: existing.id, duplicate: true };
  const id = newId();
  await files.put(xmlKey(r.userId, id), r.xml);
  if (r.pdf) await files.put(pdfKey(r.userId, id), r.pdf);
  const inserted = await db
    .insert(receipts)
    .values({
      id,
      userId: r.userId,
      clientId: r.clientId,
      ...r.facts,
      // Our own invoices and the demo's are verified like any other CFDI, never assumed good.
      ...(r.facts.seal === undefined ? cfdiChecks(r.xml) : {}),
      uuid,
      xmlKey: xmlKey(r.userId, id),
      xmlSize: r.xml.byteLength,
      pdfKey: r.pdf ? pdfKey(r.userId, id) : null,
      pdfSize: r.pdf ? r.pdf.byteLength : null,
      pdfSource: r.pdf ? 'imported' : null,
    })
    .onConflictDoNothing()
    .returning({ id: receipts.id });
  if (inserted.length === 0) {
    // Another request stored the same UUID between our check and insert: keep theirs.
    await files.delete(xmlKey(r.userId, id));
    if (r.pdf) await files.delete(pdfKey(r.userId, id));
    const [row] = await db.select({ id: receipts.id }).from(receipts).where(and(eq(receipts.clientId, r.clientId), eq(receipts.uuid, uuid)));
    if (!row) throw fail(500, MSG.generic);
    return { id: row.id, duplicate: true };
  }
  return { id, duplicate: false };
}

/** A receipt of a batch import whose files are already in the store (see saveReceiptsBatch). */
export interface BatchReceipt {
  id: string;
  userId: number;
  clientId: number;
  facts: ReceiptFacts;
  xmlSize: number;
  pdfSize?: number;
}

/**
 * The batched variant of saveReceipt for imports: multi-row INSERTs of up to 100 rows inside
 * the caller's transaction, never a statement per row. The XML (and PDF) must already be stored under
 * receiptKeys(userId, id). Answers the ids actually inserted: a UUID the account already has (a race
 * with another import) is skipped, and the caller treats it as a duplicate.
 */
export async function saveReceiptsBatch(db: Db, rows: readonly BatchReceipt[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let i = 0; i < rows.length; i += 100) {
    const out = await db
      .insert(receipts)
      .values(receiptRowsOf(rows.slice(i, i + 100)))
      .onConflictDoNothing()
      .returning({ id: receipts.id });
    for (const o of out) inserted.add(o.id);
  }
  return inserted;
}

/** The receipts rows of a batch import (what saveReceiptsBatch inserts), for callers inserting them their own way. */
export function receiptRowsOf(rows: readonly BatchReceipt[]): (typeof receipts.$inferInsert)[] {
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    clientId: r.clientId,
    ...r.facts,
    uuid: r.facts.uuid.toUpperCase(),
    xmlKey: xmlKey(r.userId, r.id),
    xmlSize: r.xmlSize,
    pdfKey: r.pdfSize !== undefined ? pdfKey(r.userId, r.id) : null,
    pdfSize: r.pdfSize ?? null,
    pdfSource: r.pdfSize !== undefined ? 'imported' : null,
  }));
}

export const fileColumns = {
  id: receipts.id,
  userId: receipts.userId,
  uuid: receipts.uuid,
  rfcIssuer: receipts.rfcIssuer,
  nameIssuer: receipts.nameIssuer,
  total: receipts.total,
  currency: receipts.currency,
  amountMxn: receipts.amountMxn,
  xmlKey: receipts.xmlKey,
  pdfKey: receipts.pdfKey,
};

export type ReceiptFileRow = { [K in keyof typeof fileColumns]: (typeof receipts.$inferSelect)[K] };

/** One receipt of that user, or 404. */
export async function ownReceipt(db: Db, userId: number, receiptId: string): Promise<ReceiptFileRow> {
  const [row] = await db
    .select(fileColumns)
    .from(receipts)
    .where(and(eq(receipts.id, receiptId), eq(receipts.userId, userId)));
  if (!row) throw fail(404, MSG.receiptNotFound);
  return row;
}

/** The receipts behind the caller's live tickets among `ticketIds`, in the order asked; others are skipped. */
export async function receiptsOfTickets(db: Db, userId: number, ticketIds: readonly string[]): Promise<ReceiptFileRow[]> {
  const ids = [...new Set(ticketIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  const rows = await db
    .select({ ticketId: tickets.id, ...fileColumns })
    .from(tickets)
    .innerJoin(receipts, eq(receipts.id, tickets.receiptId))
    .where(and(inArray(tickets.id, ids), eq(tickets.userId, userId), isNull(tickets.deletedAt)));
  const byTicket = new Map(rows.map(({ ticketId, ...r }) => [ticketId, r]));
  const seen = new Set<string>();
  const out: ReceiptFileRow[] = [];
  for (const id of ids) {
    const r = byTicket.get(id);
    if (r && !seen.has(r.id)) {
      seen.add(r.id);
      out.push(r);
    }
  }
  return out;
}

export async function receiptXml(files: FileStore, row: ReceiptFileRow): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await files.get(row.xmlKey);
  if (!bytes) throw fail(404, MSG.receiptNotFound);
  return bytes;
}

/** The imported PDF, else one rendered from the XML (kept, so the next request is a read). */
export async function receiptPdf(db: Db, files: FileStore, row: ReceiptFileRow): Promise<Uint8Array> {
  if (row.pdfKey) {
    const stored = await files.get(row.pdfKey);
    if (stored) return stored;
  }
  const xml = await receiptXml(files, row);
  // Loaded on first use: pdfkit and its fonts are not needed to start the server. Rendered on the PDF
  // pool's worker threads, so a first download does not stall other requests.
  const [{ readCfdi }, { renderCfdiPdfOffThread }] = await Promise.all([import('./read'), import('./pdf-pool')]);
  const read = readCfdi(xml);
  if (!read.ok) throw fail(422, read.reason);
  const pdf = await renderCfdiPdfOffThread(xml);
  const key = pdfKey(row.userId, row.id);
  await files.put(key, pdf);
  await db.update(receipts).set({ pdfKey: key, pdfSize: pdf.byteLength, pdfSource: 'rendered' }).where(eq(receipts.id, row.id));
  row.pdfKey = key;
  return pdf;
}

/** Forgets receipts no live ticket points at any more (after a delete), files included. */
export async function dropReceipts(db: Db, files: FileStore, receiptIds: readonly string[]): Promise<void> {
  if (receiptIds.length === 0) return;
  const gone = await db
    .delete(receipts)
    .where(inArray(receipts.id, [...receiptIds]))
    .returning({ xmlKey: receipts.xmlKey, pdfKey: receipts.pdfKey });
  for (const g of gone) {
    await files.delete(g.xmlKey).catch(() => undefined);
    if (g.pdfKey) await files.delete(g.pdfKey).catch(() => undefined);
  }
}

/** The receipt facts of a CFDI as read by src/server/cfdi/read.ts. */
export function factsFromCfdi(c: CfdiData): ReceiptFacts {
  return {
    uuid: c.uuid,
    version: c.version,
    rfcIssuer: c.issuer.rfc,
    nameIssuer: c.issuer.nombre,
    rfcReceiver: c.receiver.rfc,
    nameReceiver: c.receiver.nombre,
    emissionDate: c.fecha,
    total: c.total,
    currency: c.moneda || 'MXN',
    amountMxn: c.amountMxn,
    impTras: c.trasladados || '0',
    impRet: c.retenidos || '0',
    metodoPago: c.metodoPago,
    numCtaPago: c.numCtaPago,
    tipo: c.tipoDeComprobante,
    details: detailsOf(c),
  };
}
