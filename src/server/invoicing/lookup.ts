// A scanned SAT verification QR: is it an invoice we issued, or one the user already
// keeps? And importing the one we issued into the user's account (through the issue-5 import pipeline).
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { toCents } from '../../domain/decimal';
import { MSG } from '../../domain/messages';
import { normalizeRfc } from '../../domain/rfc';
import type { Db } from '../db/client';
import { clients, companies, invoiceRequests, receipts, tickets } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { fail } from '../http/errors';
import { verifiedAmong } from '../lib/rfc-verified';
import { markIfReplaced } from '../cfdi/cancellation';

export interface LookupQuery {
  uuid: string;
  re: string;
  rr: string;
  tt: string;
}

export interface LookupAnswer {
  uuid: string;
  rfc_issuer: string;
  name_issuer: string;
  rfc_receiver: string;
  total: string;
  emission_date: string | null;
  state: 'importable' | 'imported' | 'unknown';
  ticket_id: string | null;
}

/** A CFDI we issued with that UUID whose RFCs and total are the QR's (a tampered QR matches nothing). */
async function issuedCfdi(db: Db, q: LookupQuery) {
  const [row] = await db
    .select({ xmlKey: invoiceRequests.xmlKey, receiver: invoiceRequests.receiver, rfcIssuer: companies.rfc, nameIssuer: companies.legalName, stampedAt: invoiceRequests.stampedAt, id: invoiceRequests.id })
    .from(invoiceRequests)
    .innerJoin(companies, eq(companies.id, invoiceRequests.companyId))
    .where(eq(invoiceRequests.uuid, q.uuid));
  if (!row?.xmlKey || row.rfcIssuer !== q.re || row.receiver.rfc !== q.rr) return undefined;
  return row;
}

export async function lookupCfdi(db: Db, files: FileStore, userId: number, raw: LookupQuery): Promise<LookupAnswer> {
  const q = { uuid: raw.uuid.trim().toUpperCase(), re: normalizeRfc(raw.re), rr: normalizeRfc(raw.rr), tt: raw.tt.trim() };
  const [kept] = await db
    .select({ receipt: receipts, ticketId: tickets.id })
    .from(receipts)
    .leftJoin(tickets, and(eq(tickets.receiptId, receipts.id), isNull(tickets.deletedAt)))
    .where(and(eq(receipts.userId, userId), eq(receipts.uuid, q.uuid)));
  if (kept) {
    const r = kept.receipt;
    return {
      uuid: r.uuid, rfc_issuer: r.rfcIssuer, name_issuer: r.nameIssuer, rfc_receiver: r.rfcReceiver, total: r.total,
      emission_date: r.emissionDate, state: 'imported', ticket_id: kept.ticketId,
    };
  }
  const issued = await issuedCfdi(db, q);
  if (issued) {
    const xml = await files.get(issued.xmlKey!);
    const { readCfdi } = await import('../cfdi/read');
    const read = xml ? readCfdi(xml) : undefined;
    if (read?.ok && toCents(read.cfdi.total) === toCents(q.tt)) {
      const c = read.cfdi;
      return {
        uuid: c.uuid, rfc_issuer: c.issuer.rfc, name_issuer: c.issuer.nombre, rfc_receiver: c.receiver.rfc, total: c.total,
        emission_date: c.fecha, state: 'importable', ticket_id: null,
      };
    }
  }
  return { uuid: q.uuid, rfc_issuer: q.re, name_issuer: '', rfc_receiver: q.rr, total: q.tt, emission_date: null, state: 'unknown', ticket_id: null };
}

/** What the import by UUID must name: the SAT QR's UUID, emisor and receptor RFC and total. */
export interface ImportQuery {
  uuid: string;
  re?: string;
  rr?: string;
  tt?: string;
}

/**
 * Imports an invoice we issued into the caller's accounts whose RFC it names; answers the ticket. Someone
 * else's CFDI travels only to an account that proved its RFC (403 otherwise), and only when the QR's
 * re, rr and tt match the stored CFDI as well as the UUID: the UUID alone is printed in many places.
 */
/** The import pipeline's batch import (imports/import-cfdi.ts importCfdiBatch), handed in by the composition root. */
export type ImportCfdiBatch = (
  db: Db,
  files: FileStore,
  userId: number,
  accounts: readonly { clientId: number; rfc: string }[],
  items: readonly { uploadId: string; bytes: Uint8Array }[],
  now: Date,
  onCommit: (tx: Db, outcomes: Map<string, ImportOutcome>) => Promise<void>,
) => Promise<Map<string, ImportOutcome>>;

interface ImportOutcome {
  status: 'importado' | 'duplicado' | 'rechazado';
  ticketIds: string[];
}

export async function importIssuedCfdi(db: Db, files: FileStore, importCfdiBatch: ImportCfdiBatch, userId: number, raw: ImportQuery, now: Date): Promise<string> {
  if (!raw.re?.trim() || !raw.rr?.trim() || !raw.tt?.trim()) throw fail(400, MSG.cfdiImportQrMissing);
  const q = { uuid: raw.uuid.trim().toUpperCase(), re: normalizeRfc(raw.re), rr: normalizeRfc(raw.rr), tt: raw.tt.trim() };
  const named = await db
    .select({ clientId: clients.id, rfc: clients.rfc })
    .from(clients)
    .where(and(eq(clients.userId, userId), inArray(clients.rfc, [q.re, q.rr])));
  if (named.length === 0) throw fail(422, MSG.importNotYours);
  const verified = await verifiedAmong(db, named.map((a) => a.clientId));
  const accounts = named.filter((a) => verified.has(a.clientId));
  if (accounts.length === 0) throw fail(403, MSG.rfcNotVerifiedImport);
  const issued = await issuedCfdi(db, q);
  const xml = issued?.xmlKey ? await files.get(issued.xmlKey) : null;
  const { readCfdi } = await import('../cfdi/read');
  const read = xml ? readCfdi(xml) : undefined;
  const total = toCents(q.tt);
  if (!xml || !read?.ok || total === null || toCents(read.cfdi.total) !== total) throw fail(422, MSG.cfdiImportQrMismatch);
  const outcome = (await importCfdiBatch(db, files, userId, accounts, [{ uploadId: 'qr', bytes: xml }], now, async () => undefined)).get('qr');
  if (!outcome || outcome.status === 'rechazado') throw fail(422, MSG.importNotYours);
  const ticketId = outcome.ticketIds[0];
  if (!ticketId) throw fail(404, MSG.notFound);
  // An invoice a refacturación replaced arrives cancelled: it never counts next to its replacement.
  await markIfReplaced(db, files, q.uuid, now);
  return ticketId;
}
