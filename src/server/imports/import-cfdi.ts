// A batch of CFDI XML files becomes receipts and tickets. Each CFDI goes to the
// user's accounts it names: Receptor → spending (type 2), Emisor → income (type 3), both when both
// RFCs are the user's; with an account chosen at upload, only that one. A UUID the account already
// has is a duplicate, never a second ticket. ONE transaction per batch writes receipts and tickets with
// multi-row INSERTs (bulk-insert.ts) while the XML files are stored; it commits only once they all are,
// so a row never points at nothing.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { v7 } from 'uuid';
import { MSG } from '../../domain/messages';
import { CFDI_COMPANY_ID, TICKET_TYPE } from '../../domain/ticket';
import type { CfdiData } from '../cfdi/read';
import type { Db } from '../db/client';
import { receipts, tickets } from '../db/schema';
import { putNew, type FileStore } from '../files/file-store';
import { factsFromCfdi, receiptKeys, receiptRowsOf, type BatchReceipt } from '../receipts/receipts';
import { bulkInsert } from './bulk-insert';
import { readCheckedCfdi, type CheckedCfdiRead } from './parse-task';
import { mexicoCityMidnight } from '../tickets/mexico-time';

const FACTURADO = 4;
/** Parallel writes to the files store. */
const PUT_CONCURRENCY = 16;

export interface Account {
  clientId: number;
  rfc: string;
}

export interface XmlItem {
  uploadId: string;
  bytes: Uint8Array;
  /** The file already read (off the event loop, imports/parse-pool.ts); else it is read here. */
  read?: CheckedCfdiRead;
}

export interface Outcome {
  status: 'importado' | 'duplicado' | 'rechazado';
  reason: string | null;
  ticketIds: string[];
  /** The receipts this CFDI has in the user's accounts (new or existing): PDFs attach to them. */
  receiptIds: string[];
  uuid: string | null;
}

export const notYoursReason = (issuer: string, receiver: string) => `${MSG.importNotYours} (emisor ${issuer}, receptor ${receiver})`;

/** "2026-01-05T09:30:00" read as Mexico City wall time. */
export function emissionInstant(fecha: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(fecha);
  if (!m) return new Date(NaN);
  const midnight = mexicoCityMidnight(Number(m[1]), Number(m[2]), Number(m[3]));
  return new Date(midnight.getTime() + ((Number(m[4]) * 60 + Number(m[5])) * 60 + Number(m[6])) * 1000);
}

export async function runLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Most used category per issuer RFC among this user's spending (and per customer RFC among their CFDI income). */
async function guessCategories(db: Db, userId: number, issuers: string[], customers: string[]) {
  const spending = new Map<string, number>();
  const income = new Map<string, number>();
  if (issuers.length > 0) {
    const rows = await db
      .select({ rfc: receipts.rfcIssuer, tag: tickets.metaTagId, n: sql<number>`count(*)::int` })
      .from(tickets)
      .innerJoin(receipts, eq(receipts.id, tickets.receiptId))
      .where(and(eq(tickets.userId, userId), isNull(tickets.deletedAt), eq(tickets.type, TICKET_TYPE.expense), inArray(receipts.rfcIssuer, issuers), sql`${tickets.metaTagId} IS NOT NULL`))
      .groupBy(receipts.rfcIssuer, tickets.metaTagId)
      .orderBy(sql`count(*) DESC`, tickets.metaTagId);
    for (const r of rows) if (r.tag !== null && !spending.has(r.rfc)) spending.set(r.rfc, r.tag);
  }
  if (customers.length > 0) {
    const rows = await db
      .select({ rfc: receipts.rfcReceiver, tag: tickets.incomeMetaTagId })
      .from(tickets)
      .innerJoin(receipts, eq(receipts.id, tickets.receiptId))
      .where(and(eq(tickets.userId, userId), isNull(tickets.deletedAt), eq(tickets.type, TICKET_TYPE.incomeCfdi), inArray(receipts.rfcReceiver, customers), sql`${tickets.incomeMetaTagId} IS NOT NULL`))
      .groupBy(receipts.rfcReceiver, tickets.incomeMetaTagId)
      .orderBy(sql`count(*) DESC`, tickets.incomeMetaTagId);
    for (const r of rows) if (r.tag !== null && !income.has(r.rfc)) income.set(r.rfc, r.tag);
  }
  return { spending, income };
}

interface Target {
  clientId: number;
  type: number;
}

interface Planned {
  item: XmlItem;
  cfdi: CfdiData;
  targets: Target[];
}

/**
 * Imports one batch for one user. `accounts` are the accounts a CFDI may go to (all the user's, or the
 * chosen one). Answers an outcome per upload id; `onCommit` stores them in the same transaction as the
 * rows, so a job retried after a crash finds either nothing done or everything done.
 */
export async function importCfdiBatch(
  db: Db,
  files: FileStore,
  userId: number,
  accounts: readonly Account[],
  items: readonly XmlItem[],
  now: Date,
  /** Writes the outcomes (upload statuses) inside the batch's transaction. */
  onCommit: (tx: Db, outcomes: Map<string, Outcome>) => Promise<void>,
): Promise<Map<string, Outcome>> {
  const out = new Map<string, Outcome>();
  const planned: Planned[] = [];
  const byRfc = new Map<string, number[]>();
  for (const a of accounts) byRfc.set(a.rfc.toUpperCase(), [...(byRfc.get(a.rfc.toUpperCase()) ?? []), a.clientId]);
  for (const item of items) {
    const read = (item.read ??= readCheckedCfdi(item.bytes));
    if (!read.ok) {
      out.set(item.uploadId, { status: 'rechazado', reason: read.reason, ticketIds: [], receiptIds: [], uuid: null });
      continue;
    }
    const c = read.cfdi;
    const targets: Target[] = [];
    for (const id of byRfc.get(c.receiver.rfc.toUpperCase()) ?? []) targets.push({ clientId: id, type: TICKET_TYPE.expense });
    for (const id of byRfc.get(c.issuer.rfc.toUpperCase()) ?? []) targets.push({ clientId: id, type: TICKET_TYPE.incomeCfdi });
    if (targets.length === 0) {
      out.set(item.uploadId, { status: 'rechazado', reason: notYoursReason(c.issuer.rfc, c.receiver.rfc), ticketIds: [], receiptIds: [], uuid: c.uuid });
      continue;
    }
    // tickets.amount is numeric(14,2): an absurd total (random test values) is refused, not a failed batch.
    if (!(Math.abs(Number(c.amountMxn)) < 1e12)) {
      out.set(item.uploadId, { status: 'rechazado', reason: `${MSG.cfdiInvalid} Total`, ticketIds: [], receiptIds: [], uuid: c.uuid });
      continue;
    }
    planned.push({ item, cfdi: c, targets });
  }
  if (planned.length === 0) {
    await db.transaction((tx) => onCommit(tx, out));
    return out;
  }

  // What the accounts already have (earlier imports, or this same batch on a retried job).
  const uuids = [...new Set(planned.map((p) => p.cfdi.uuid))];
  const clientIds = [...new Set(planned.flatMap((p) => p.targets.map((t) => t.clientId)))];
  const existing = new Map<string, { receiptId: string; ticketIds: string[] }>();
  for (let i = 0; i < uuids.length; i += 1000) {
    const rows = await db
      .select({ clientId: receipts.clientId, uuid: receipts.uuid, id: receipts.id, ticketId: tickets.id })
      .from(receipts)
      .leftJoin(tickets, and(eq(tickets.receiptId, receipts.id), isNull(tickets.deletedAt)))
      .where(and(inArray(receipts.clientId, clientIds), inArray(receipts.uuid, uuids.slice(i, i + 1000))));
    for (const r of rows) {
      const k = `${r.clientId}|${r.uuid}`;
      const e = existing.get(k) ?? { receiptId: r.id, ticketIds: [] };
      if (r.ticketId) e.ticketIds.push(r.ticketId);
      existing.set(k, e);
    }
  }

  const cats = await guessCategories(
    db,
    userId,
    [...new Set(planned.filter((p) => p.targets.some((t) => t.type === TICKET_TYPE.expense)).map((p) => p.cfdi.issuer.rfc))],
    [...new Set(planned.filter((p) => p.targets.some((t) => t.type === TICKET_TYPE.incomeCfdi)).map((p) => p.cfdi.receiver.rfc))],
  );

  const newReceipts: (BatchReceipt & { bytes: Uint8Array })[] = [];
  const newTickets: (typeof tickets.$inferInsert)[] = [];
  const ticketOfReceipt = new Map<string, string>();
  const claimed = new Map<string, string>(); // clientId|uuid → receipt id made in this batch
  for (const p of planned) {
    const o: Outcome = { status: 'duplicado', reason: null, ticketIds: [], receiptIds: [], uuid: p.cfdi.uuid };
    const facts = { ...factsFromCfdi(p.cfdi), ...p.item.read?.checks };
    const receivedAt = emissionInstant(p.cfdi.fecha);
    for (const t of p.targets) {
      const k = `${t.clientId}|${p.cfdi.uuid}`;
      const had = existing.get(k);
      if (had) {
        o.ticketIds.push(...had.ticketIds);
        o.receiptIds.push(had.receiptId);
        continue;
      }
      const sameBatch = claimed.get(k);
      if (sameBatch) {
        o.receiptIds.push(sameBatch);
        o.ticketIds.push(ticketOfReceipt.get(sameBatch)!);
        continue;
      }
      const receiptId = v7();
      const ticketId = v7({ msecs: Number.isNaN(receivedAt.getTime()) ? now.getTime() : receivedAt.getTime() });
      claimed.set(k, receiptId);
      ticketOfReceipt.set(receiptId, ticketId);
      newReceipts.push({ id: receiptId, userId, clientId: t.clientId, facts, xmlSize: p.item.bytes.byteLength, bytes: p.item.bytes });
      const expense = t.type === TICKET_TYPE.expense;
      newTickets.push({
        id: ticketId,
        userId,
        clientId: t.clientId,
        type: t.type,
        statusId: FACTURADO,
        companyId: CFDI_COMPANY_ID,
        ticketNumber: `${p.cfdi.serie}${p.cfdi.folio}`,
        amount: facts.amountMxn,
        receivedAt,
        metaTagId: expense ? (cats.spending.get(p.cfdi.issuer.rfc) ?? null) : null,
        incomeMetaTagId: expense ? null : (cats.income.get(p.cfdi.receiver.rfc) ?? null),
        receiptId,
        createdAt: now,
        updatedAt: now,
      });
      o.status = 'importado';
      o.receiptIds.push(receiptId);
      o.ticketIds.push(ticketId);
    }
    out.set(p.item.uploadId, o);
  }

  // The XML files are written while the rows go in; the transaction commits only once they are all
  // stored (a failed write rolls it back), so a receipt row never points at nothing. Their keys are new
  // receipt ids no reader knows before the commit: written in place (putNew), no temporary file.
  const putting = runLimited(newReceipts, PUT_CONCURRENCY, (r) => putNew(files, receiptKeys(userId, r.id).xml, r.bytes));
  putting.catch(() => undefined); // awaited inside the transaction
  const lost = await db.transaction(async (tx) => {
    const inserted = await bulkInsert(tx, receipts, receiptRowsOf(newReceipts), { onConflictDoNothing: true });
    await bulkInsert(tx, tickets, newTickets.filter((t) => inserted.has(t.receiptId!)));
    const gone = newReceipts.filter((r) => !inserted.has(r.id)).map((r) => r.id);
    // Another import stored these UUIDs between our check and our insert: theirs stand.
    if (gone.length > 0) {
      const goneTickets = new Set(gone.map((g) => ticketOfReceipt.get(g)));
      for (const o of out.values()) {
        if (!o.receiptIds.some((id) => gone.includes(id))) continue;
        o.ticketIds = o.ticketIds.filter((t) => !goneTickets.has(t));
        o.receiptIds = o.receiptIds.filter((id) => !gone.includes(id));
        if (o.ticketIds.length === 0 && o.status === 'importado') o.status = 'duplicado';
      }
    }
    // The uploads' statuses commit with the rows they describe: a retried job never re-reads a done file.
    await onCommit(tx, out);
    await putting;
    return gone;
  });
  for (const id of lost) await files.delete(receiptKeys(userId, id).xml).catch(() => undefined);
  return out;
}
