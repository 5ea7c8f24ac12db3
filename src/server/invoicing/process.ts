// One invoice request's path, step by step: build + seal (kept) → stamp → receipt and 'facturado' →
// (refacturar: the replaced CFDI cancelled) → PDF → e-mail → 'enviada'. Each step first looks at what
// the row says is done and skips it, so the job can be run again at any point after a crash. The sealed
// XML is stored BEFORE it goes to the PAC, and a re-run sends that same document: the PAC answers a
// re-sent document with its original stamp (the sandbox derives it from the document), so one request
// never becomes two invoices.
import { and, eq, isNull } from 'drizzle-orm';
import { checkRegimeForUso } from '../../domain/invoicing';
import { formatMoney } from '../../domain/money';
import { MSG } from '../../domain/messages';
import { CfdiBuildError } from '../cfdi/build';
import { PacError, type CancelState, type PacPort } from '../cfdi/pac';
import { renderCfdiPdfOffThread } from '../cfdi/pdf-pool';
import { readCfdi, type CfdiData } from '../cfdi/read';
import { lookUpPublishedData } from '../cfdi/published-data';
import { checkCfdi40, listFactsOfXml } from '../cfdi/rules';
import { sealCfdi } from '../cfdi/seal';
import { verificationUrl } from '../cfdi/verification-url';
import type { Db } from '../db/client';
import { invoiceRequests, merchantTickets, tickets } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { ApiError } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import { factsFromCfdi, saveReceipt } from '../cfdi/receipts';
import { invoiceInput } from './build-invoice';
import { markCfdiCancelled, readCancellation, saveCancellation } from '../cfdi/cancellation';
import { invoiceMail } from './mail';
import type { MerchantSide } from './ports';

export interface InvoiceDeps {
  db: Db;
  files: FileStore;
  mailer: Mailer;
  pac: PacPort;
  clock: () => Date;
  /** The merchant's issuer data and CSD (handed in by the composition root). */
  merchants: MerchantSide;
}

const FACTURADO = 4;

export type RequestRow = typeof invoiceRequests.$inferSelect;

/** Where a request's files live (server-made keys). */
export const invoiceKeys = (id: string) => ({
  sealed: `invoices/${id}/sellado.xml`,
  xml: `invoices/${id}/cfdi.xml`,
  pdf: `invoices/${id}/cfdi.pdf`,
});

/** What a run ended with: done, or a refusal that no retry will change. */
export type RunOutcome = 'enviada' | 'rejected' | 'skipped';

function read(xml: Uint8Array): CfdiData {
  const r = readCfdi(xml);
  if (!r.ok) throw new Error(`stamped CFDI unreadable: ${r.reason}`);
  return r.cfdi;
}

async function update(db: Db, id: string, set: Partial<typeof invoiceRequests.$inferInsert>, now: Date): Promise<void> {
  await db.update(invoiceRequests).set({ ...set, updatedAt: now }).where(eq(invoiceRequests.id, id));
}

async function mustGet(files: FileStore, key: string): Promise<Uint8Array> {
  const bytes = await files.get(key);
  if (!bytes) throw new Error(`missing file ${key}`);
  return bytes;
}

/** Runs (or resumes) one request. Throws on failures worth retrying (the job retries with backoff). */
export async function processInvoiceRequest(deps: InvoiceDeps, id: string): Promise<RunOutcome> {
  const { db, files } = deps;
  const [req] = await db.select().from(invoiceRequests).where(eq(invoiceRequests.id, id));
  if (!req || req.status === 'sustituida' || req.status === 'enviada' || (req.status === 'error' && !req.xmlKey)) return 'skipped';
  await db.update(invoiceRequests).set({ attempts: req.attempts + 1 }).where(eq(invoiceRequests.id, id));
  const issuer = await deps.merchants.issuerOf(db, req.companyId);
  if (!issuer) throw new Error(`invoice request ${id}: merchant ${req.companyId} not found`);
  const keys = invoiceKeys(id);

  // 1. Build and seal, once: the stored document is what every later attempt stamps.
  if (!req.sealedXmlKey) {
    const ticketRows = await db.select().from(merchantTickets).where(eq(merchantTickets.invoiceRequestId, id)).orderBy(merchantTickets.issuedAt);
    let replacesUuid: string | null = null;
    if (req.replacesId) {
      const [old] = await db.select({ uuid: invoiceRequests.uuid }).from(invoiceRequests).where(eq(invoiceRequests.id, req.replacesId));
      replacesUuid = old?.uuid ?? null;
    }
    let sealedXml: string;
    try {
      const input = invoiceInput({ requestId: id, issuer, receiver: req.receiver, tickets: ticketRows, replacesUuid, now: deps.clock() });
      sealedXml = sealCfdi(input, await deps.merchants.csdOf(db, issuer.id)).xml;
    } catch (err) {
      // Data no invoice can be made of (a ticket line SAT refuses): no retry will change it.
      if (!(err instanceof CfdiBuildError || err instanceof ApiError)) throw err;
      console.error('[invoicing] datos no facturables:', id, err.message);
      await update(db, id, { status: 'error', error: MSG.invoiceRejected }, deps.clock());
      return 'rejected';
    }
    // SAT's CFDI 4.0 rules, as a PAC applies them: a document with a finding never reaches the PAC.
    // The user gets the spec's message (the S01 one when the receiver's regime and Uso are the cause).
    // With the day's exchange rate and SAT's cancelled RFCs we keep (CFDI40118, CFDI40138, CFDI40143).
    const listed = listFactsOfXml(sealedXml);
    const lists = listed ? await lookUpPublishedData(db, [listed]) : undefined;
    const findings = checkCfdi40(sealedXml, { now: deps.clock(), beforeStamping: true, lists });
    if (findings.length > 0) {
      console.error('[invoicing] reglas del SAT:', id, findings.map((f) => f.code).join(' '));
      const r = req.receiver;
      const error = checkRegimeForUso(r.regimen_fiscal, r.uso_cfdi, r.rfc) ?? MSG.invoiceRejected;
      await update(db, id, { status: 'error', error }, deps.clock());
      return 'rejected';
    }
    await files.put(keys.sealed, new TextEncoder().encode(sealedXml));
    await db.update(invoiceRequests).set({ sealedXmlKey: keys.sealed, updatedAt: deps.clock() })
      .where(and(eq(invoiceRequests.id, id), isNull(invoiceRequests.sealedXmlKey)));
    req.sealedXmlKey = keys.sealed;
  }

  // 2. Stamp the stored document.
  if (!req.xmlKey) {
    const sealed = new TextDecoder().decode(await mustGet(files, req.sealedXmlKey));
    let stamped;
    try {
      stamped = await deps.pac.stamp(sealed);
    } catch (err) {
      if (!(err instanceof PacError)) throw err;
      console.error('[invoicing] el PAC rechazó', id, err.message);
      await update(db, id, { status: 'error', error: MSG.invoiceRejected }, deps.clock());
      return 'rejected';
    }
    await files.put(keys.xml, new TextEncoder().encode(stamped.xml));
    const now = deps.clock();
    await update(db, id, { xmlKey: keys.xml, uuid: stamped.uuid, status: 'timbrada', error: null, stampedAt: now }, now);
    req.xmlKey = keys.xml;
    req.uuid = stamped.uuid;
  }
  const xml = await mustGet(files, req.xmlKey);
  const cfdi = read(xml);

  // 3. The requester's receipt, and their ticket becomes 'facturado' (anonymous requests have none).
  if (req.userId !== null && req.clientId !== null && !req.receiptId) {
    const saved = await saveReceipt(db, files, { userId: req.userId, clientId: req.clientId, facts: factsFromCfdi(cfdi), xml });
    await db.transaction(async (tx) => {
      await tx.update(invoiceRequests).set({ receiptId: saved.id, updatedAt: deps.clock() }).where(eq(invoiceRequests.id, id));
      if (req.ticketId) {
        await tx.update(tickets).set({ statusId: FACTURADO, receiptId: saved.id, updatedAt: deps.clock() })
          .where(and(eq(tickets.id, req.ticketId), eq(tickets.userId, req.userId!)));
      }
    });
    req.receiptId = saved.id;
  }

  // 3b. Refacturar: the replaced CFDI is cancelled at the PAC (motive 01, FolioSustitucion = this UUID)
  // and leaves every total.
  if (req.replacesId) await cancelReplaced(deps, req.replacesId, issuer.rfc, cfdi.uuid);

  // 4. The printed form, with SAT's verification QR.
  let pdf: Uint8Array;
  if (req.pdfKey) pdf = await mustGet(files, req.pdfKey);
  else {
    pdf = await renderCfdiPdfOffThread(xml);
    await files.put(keys.pdf, pdf);
    await update(db, id, { pdfKey: keys.pdf }, deps.clock());
  }

  // 5. Deliver. A refused message keeps the invoice 'timbrada' with the error, and the job retries.
  if (!req.sentAt) {
    await sendInvoice(deps, req, issuer.name, cfdi, xml, pdf);
    const now = deps.clock();
    await update(db, id, { status: 'enviada', sentAt: now, error: null }, now);
  }
  return 'enviada';
}

/**
 * Cancels the CFDI of the request `replacedId` in favour of `newUuid` and marks its copies in every
 * account. Once the PAC's answer is kept it is not asked again; before that (a crash between its answer
 * and keeping it) the PAC's own idempotency — a second request answers the first one's state — keeps a
 * re-run from cancelling twice. A refusal is logged, and the old CFDI still leaves the totals: the new
 * one counts in its place.
 */
async function cancelReplaced(deps: InvoiceDeps, replacedId: string, issuerRfc: string, newUuid: string): Promise<void> {
  const { db, files } = deps;
  const [old] = await db.select().from(invoiceRequests).where(eq(invoiceRequests.id, replacedId));
  if (!old?.uuid) return; // never stamped: nothing to cancel
  // The PAC's answer is kept with the replaced request's files: a re-run reads it instead of asking again.
  let state: CancelState | null = (await readCancellation(files, old.id))?.state ?? null;
  if (state === null) {
    const oldXml = old.xmlKey ? await files.get(old.xmlKey) : null;
    const read = oldXml ? readCfdi(oldXml) : undefined;
    try {
      const answer = await deps.pac.cancel({
        uuid: old.uuid, rfcEmisor: issuerRfc, motive: '01', replacement: newUuid,
        rfcReceptor: old.receiver.rfc, ...(read?.ok ? { total: read.cfdi.total } : {}),
      });
      await saveCancellation(files, old.id, answer);
      state = answer.state;
    } catch (err) {
      if (!(err instanceof PacError)) throw err;
      console.error('[invoicing] el PAC no canceló la factura sustituida', old.id, err.message);
    }
  }
  await markCfdiCancelled(db, { uuid: old.uuid, cancelStatus: state, replacedBy: newUuid }, deps.clock());
}

/** Mails the invoice to the address on file; on failure records MSG.merchantSendFailed and throws. */
export async function sendInvoice(deps: Pick<InvoiceDeps, 'db' | 'mailer' | 'clock'>, req: RequestRow, merchantName: string, cfdi: CfdiData, xml: Uint8Array, pdf: Uint8Array): Promise<void> {
  const message = invoiceMail({
    to: req.email, merchantName, uuid: cfdi.uuid, total: formatMoney(cfdi.total), receiverRfc: cfdi.receiver.rfc,
    verificationUrl: verificationUrl(cfdi), pdf, xml,
  });
  try {
    await deps.mailer.send(message);
  } catch (err) {
    await update(deps.db, req.id, { error: MSG.merchantSendFailed }, deps.clock());
    throw err;
  }
}

/** After the last retry: an unstamped request ends in 'error' (the user may retry); a stamped one keeps its status. */
export async function giveUp(deps: InvoiceDeps, id: string): Promise<void> {
  const now = deps.clock();
  await deps.db.update(invoiceRequests).set({ status: 'error', error: MSG.merchantSendFailed, updatedAt: now })
    .where(and(eq(invoiceRequests.id, id), eq(invoiceRequests.status, 'solicitada')));
  await deps.db.update(invoiceRequests).set({ error: MSG.merchantSendFailed, updatedAt: now })
    .where(and(eq(invoiceRequests.id, id), eq(invoiceRequests.status, 'timbrada')));
}
