// GET /api/v3/receipts/archive (spec §7 receipts archive): a zip of the PDF and XML of each receipt,
// streamed as it is built. Entry names are made here from the UUID (never from anything a user
// uploaded); files are fetched one after another so the first bytes leave before the last file is read.
import { Readable } from 'node:stream';
import JSZip from 'jszip';
import type { Db } from '../db/client';
import type { FileStore } from '../files/file-store';
import { receiptPdf, receiptXml, type ReceiptFileRow } from '../cfdi/receipts';

/** `EKU9003173C9_5A5B…` — the issuer first, so an accountant's file list sorts by supplier. */
export function entryBase(row: Pick<ReceiptFileRow, 'rfcIssuer' | 'uuid'>): string {
  const rfc = row.rfcIssuer.replace(/[^A-Z0-9]/gi, '_');
  const uuid = row.uuid.replace(/[^A-F0-9-]/gi, '');
  return `${rfc}_${uuid}`;
}

export function archiveName(now: Date): string {
  return `facturas-${now.toISOString().slice(0, 10)}.zip`;
}

/** The zip as a web stream. `rows` are already the caller's own receipts. */
export function archiveStream(db: Db, files: FileStore, rows: readonly ReceiptFileRow[]): ReadableStream<Uint8Array> {
  const zip = new JSZip();
  // Each file's bytes are read when the previous one is in: a chain, not 400 reads at once.
  let previous: Promise<unknown> = Promise.resolve();
  for (const row of rows) {
    const base = entryBase(row);
    const xml = previous.then(() => receiptXml(files, row));
    const pdf = xml.then(() => receiptPdf(db, files, row));
    zip.file(`${base}.xml`, xml, { binary: true });
    zip.file(`${base}.pdf`, pdf, { binary: true, compression: 'STORE' });
    previous = pdf;
  }
  // XML compresses ~4x; PDFs are deflated inside already, so they are stored as they are (above).
  const node = zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE', compressionOptions: { level: 6 } });
  return Readable.toWeb(node as Readable) as ReadableStream<Uint8Array>;
}
