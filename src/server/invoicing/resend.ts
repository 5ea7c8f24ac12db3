// Re-mailing an invoice to the address on file ('Reenviar', and the already-invoiced modal), and reading
// a request's stamped XML and PDF.
import { and, eq } from 'drizzle-orm';
import { renderCfdiPdfOffThread } from '../cfdi/pdf-pool';
import { readCfdi, type CfdiData } from '../cfdi/read';
import type { Db } from '../db/client';
import { companies, invoiceRequests } from '../db/schema';
import type { FileStore } from '../files/file-store';
import type { Mailer } from '../mail/mailer';
import { invoiceKeys, sendInvoice, type RequestRow } from './process';

export async function invoiceFiles(db: Db, files: FileStore, row: RequestRow): Promise<{ xml: Uint8Array; pdf: Uint8Array; cfdi: CfdiData }> {
  const xml = row.xmlKey ? await files.get(row.xmlKey) : null;
  if (!xml) throw new Error(`invoice request ${row.id}: stamped XML missing`);
  const read = readCfdi(xml);
  if (!read.ok) throw new Error(`invoice request ${row.id}: ${read.reason}`);
  const stored = row.pdfKey ? await files.get(row.pdfKey) : null;
  if (stored) return { xml, pdf: stored, cfdi: read.cfdi };
  const pdf = await renderCfdiPdfOffThread(xml);
  const key = invoiceKeys(row.id).pdf;
  await files.put(key, pdf);
  await db.update(invoiceRequests).set({ pdfKey: key }).where(eq(invoiceRequests.id, row.id));
  return { xml, pdf, cfdi: read.cfdi };
}

export interface ResendDeps {
  db: Db;
  files: FileStore;
  mailer: Mailer;
  clock: () => Date;
}

/** Mails the stamped invoice again; a request that had not been delivered yet becomes 'enviada'. */
export async function resendInvoice(deps: ResendDeps, row: RequestRow): Promise<string> {
  const { xml, pdf, cfdi } = await invoiceFiles(deps.db, deps.files, row);
  const [company] = await deps.db.select({ name: companies.name }).from(companies).where(eq(companies.id, row.companyId));
  await sendInvoice(deps, row, company?.name ?? cfdi.issuer.nombre, cfdi, xml, pdf);
  const now = deps.clock();
  const sent = await deps.db
    .update(invoiceRequests)
    .set({ status: 'enviada', sentAt: now, error: null, updatedAt: now })
    .where(and(eq(invoiceRequests.id, row.id), eq(invoiceRequests.status, 'timbrada')))
    .returning({ status: invoiceRequests.status });
  return sent[0]?.status ?? row.status;
}
