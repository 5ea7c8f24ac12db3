// A batch of CFDI XML files becomes receipts and tickets. Each CFDI goes to the user's accounts it names,
// into the books its TipoDeComprobante says (cfdi/books.ts: spending, income, negative for a credit note, 0
// for a payment or a traslado), both books when both RFCs are the user's — even the same account. With an
// account chosen at upload, only that one; a CFDI naming another of the user's accounts instead goes
// there, and its status says so. A UUID the account already has is a duplicate, never a second receipt.
// ONE transaction per batch writes receipts, tickets and payment links with multi-row INSERTs
// (bulk-insert.ts) while the XML files are stored; it commits only once they all are, so a row never
// points at nothing.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { newId, newIdAt } from '../../domain/ids';
import { MSG } from '../../domain/messages';
import { TICKET_TYPE } from '../../domain/ticket';
import { listFactsOf, lookUpPublishedData } from '../cfdi/published-data';
import type { CfdiData } from '../cfdi/read';
import { listFindings, mergeFindings } from '../cfdi/rules';
import type { Db } from '../db/client';
import { inTexts } from '../db/value-list';
import { cfdiPayments, receipts, tickets } from '../db/schema';
import { putNew, type FileStore } from '../files/file-store';
import { factsFromCfdi, receiptKeys, receiptRowsOf, type BatchReceipt } from '../cfdi/receipts';
import { bookAmount, booksInstant, paidDocuments, paymentRowsOf, sidesOf, ticketRowOf, type BookAmount, type BookSide } from '../cfdi/books';
import { bulkInsert } from './bulk-insert';
import { readCheckedCfdi, type CheckedCfdiRead } from './parse-task';

/** Parallel writes to the files store. */
const PUT_CONCURRENCY = 16;
/** cfdi_payments rows per INSERT (10 parameters each). */
const PAYMENT_CHUNK = 500;

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

interface Planned {
  item: XmlItem;
  cfdi: CfdiData;
  sides: BookSide[];
  book: BookAmount;
  receivedAt: Date;
  /** Imported into another of the user's accounts than the one chosen: the status says which. */
  note: string | null;
}

const byRfcOf = (accounts: readonly Account[]) => {
  const m = new Map<string, number[]>();
  for (const a of accounts) m.set(a.rfc.toUpperCase(), [...(m.get(a.rfc.toUpperCase()) ?? []), a.clientId]);
  return m;
};

/**
 * Imports one batch for one user. `accounts` are the accounts a CFDI may go to (all the user's, or the
 * chosen one); `others` (with a chosen account: the user's other accounts) take a CFDI that names none
 * of `accounts`. Answers an outcome per upload id; `onCommit` stores them in the same transaction as the
 * rows, so a job retried after a crash finds either nothing done or everything done.
 */
export async function importCfdiBatch(
  db: Db,
  files: FileStore,
  userId: number,
  accounts: readonly Account[],
  items: readonly XmlItem[],
  now: Date,
  /**
   * Writes what must commit with the rows, inside the batch's transaction: the outcomes (upload statuses),
   * and the marks of CFDI already known cancelled. Gets the outcomes as they end (receipt ids a concurrent
   * import took are gone from them).
   */
  onCommit: (tx: Db, outcomes: Map<string, Outcome>) => Promise<void>,
  others: readonly Account[] = [],
): Promise<Map<string, Outcome>> {
  const out = new Map<string, Outcome>();
  const planned: Planned[] = [];
  const byRfc = byRfcOf(accounts);
  const othersByRfc = byRfcOf(others);
  const rfcOf = new Map(others.map((a) => [a.clientId, a.rfc.toUpperCase()]));
  for (const item of items) {
    const read = (item.read ??= readCheckedCfdi(item.bytes));
    if (!read.ok) {
      out.set(item.uploadId, { status: 'rechazado', reason: read.reason, ticketIds: [], receiptIds: [], uuid: null });
      continue;
    }
    const c = read.cfdi;
    let sides = sidesOf(c, byRfc);
    let note: string | null = null;
    if (sides.length === 0) {
      sides = sidesOf(c, othersByRfc);
      if (sides.length > 0) note = `${MSG.importedInOtherAccount} ${[...new Set(sides.map((x) => rfcOf.get(x.clientId)))].join(', ')}`;
    }
    if (sides.length === 0) {
      out.set(item.uploadId, { status: 'rechazado', reason: notYoursReason(c.issuer.rfc, c.receiver.rfc), ticketIds: [], receiptIds: [], uuid: c.uuid });
      continue;
    }
    // tickets.amount is numeric(14,2): an absurd total (random test values) is refused, not a failed batch.
    const book = bookAmount(c);
    if (!book) {
      out.set(item.uploadId, { status: 'rechazado', reason: `${MSG.cfdiInvalid} Total`, ticketIds: [], receiptIds: [], uuid: c.uuid });
      continue;
    }
    const receivedAt = booksInstant(c);
    if (Number.isNaN(receivedAt.getTime())) {
      out.set(item.uploadId, { status: 'rechazado', reason: `${MSG.cfdiInvalid} Fecha`, ticketIds: [], receiptIds: [], uuid: c.uuid });
      continue;
    }
    planned.push({ item, cfdi: c, sides, book, receivedAt, note });
  }
  if (planned.length === 0) {
    await db.transaction((tx) => onCommit(tx, out));
    return out;
  }

  // What the accounts already have (earlier imports, or this same batch on a retried job).
  const uuids = [...new Set(planned.map((p) => p.cfdi.uuid))];
  const clientIds = [...new Set(planned.flatMap((p) => p.sides.map((t) => t.clientId)))];
  const existing = new Map<string, { receiptId: string; ticketIds: string[] }>();
  for (let i = 0; i < uuids.length; i += 1000) {
    const rows = await db
      .select({ clientId: receipts.clientId, uuid: receipts.uuid, id: receipts.id, ticketId: tickets.id })
      .from(receipts)
      .leftJoin(tickets, and(eq(tickets.receiptId, receipts.id), isNull(tickets.deletedAt)))
      .where(and(inArray(receipts.clientId, clientIds), inTexts(receipts.uuid, uuids.slice(i, i + 1000))));
    for (const r of rows) {
      const k = `${r.clientId}|${r.uuid}`;
      const e = existing.get(k) ?? { receiptId: r.id, ticketIds: [] };
      if (r.ticketId) e.ticketIds.push(r.ticketId);
      existing.set(k, e);
    }
  }

  // Categories are guessed from the counterparty of earlier spending / income; a payroll's counterparty
  // is the account itself, so it gets none.
  const guessed = planned.filter((p) => p.cfdi.tipoDeComprobante !== 'N');
  const cats = await guessCategories(
    db,
    userId,
    [...new Set(guessed.filter((p) => p.sides.some((t) => t.type === TICKET_TYPE.expense)).map((p) => p.cfdi.issuer.rfc))],
    [...new Set(guessed.filter((p) => p.sides.some((t) => t.type === TICKET_TYPE.incomeCfdi)).map((p) => p.cfdi.receiver.rfc))],
  );

  // SAT's rules that need published data (the day's exchange rate, SAT's cancelled RFCs) are judged
  // here, not in the parse workers, which have no database: one lookup for the batch's new CFDI.
  const fresh = planned.filter((p) => p.sides.some((s) => !existing.has(`${s.clientId}|${p.cfdi.uuid}`)));
  const published = await lookUpPublishedData(db, fresh.flatMap((p) => listFactsOf(p.cfdi) ?? []));

  const newReceipts: (BatchReceipt & { bytes: Uint8Array })[] = [];
  const newTickets: (typeof tickets.$inferInsert)[] = [];
  const newPayments: (typeof cfdiPayments.$inferInsert)[] = [];
  const paidUuids = new Set<string>();
  const ticketsOfReceipt = new Map<string, string[]>();
  const claimed = new Map<string, string>(); // clientId|uuid → receipt id made in this batch
  for (const p of planned) {
    const o: Outcome = { status: 'duplicado', reason: p.note, ticketIds: [], receiptIds: [], uuid: p.cfdi.uuid };
    const checks = p.item.read?.checks;
    const listed = listFactsOf(p.cfdi);
    const facts = {
      ...factsFromCfdi(p.cfdi),
      ...checks,
      ...(checks && listed ? { findings: mergeFindings(checks.findings, listFindings(listed, published)) } : {}),
    };
    const payroll = p.cfdi.tipoDeComprobante === 'N';
    // One receipt per account, with a ticket per side the account is on (both when it issued and received it).
    const byClient = new Map<number, BookSide[]>();
    for (const side of p.sides) byClient.set(side.clientId, [...(byClient.get(side.clientId) ?? []), side]);
    for (const [clientId, sides] of byClient) {
      const k = `${clientId}|${p.cfdi.uuid}`;
      const had = existing.get(k);
      if (had) {
        o.ticketIds.push(...had.ticketIds);
        o.receiptIds.push(had.receiptId);
        continue;
      }
      const sameBatch = claimed.get(k);
      if (sameBatch) {
        o.receiptIds.push(sameBatch);
        o.ticketIds.push(...(ticketsOfReceipt.get(sameBatch) ?? []));
        continue;
      }
      const receiptId = newId();
      claimed.set(k, receiptId);
      newReceipts.push({ id: receiptId, userId, clientId, facts, xmlSize: p.item.bytes.byteLength, bytes: p.item.bytes });
      newPayments.push(...paymentRowsOf(p.cfdi, clientId, receiptId));
      const made: string[] = [];
      for (const side of sides) {
        const ticketId = newIdAt(p.receivedAt.getTime());
        made.push(ticketId);
        newTickets.push(
          ticketRowOf(p.cfdi, {
            id: ticketId,
            userId,
            side,
            receiptId,
            receivedAt: p.receivedAt,
            book: p.book,
            metaTagId: payroll ? null : (cats.spending.get(p.cfdi.issuer.rfc) ?? null),
            incomeMetaTagId: payroll ? null : (cats.income.get(p.cfdi.receiver.rfc) ?? null),
            now,
          }),
        );
      }
      ticketsOfReceipt.set(receiptId, made);
      o.status = 'importado';
      o.receiptIds.push(receiptId);
      o.ticketIds.push(...made);
    }
    if (o.status === 'importado') for (const d of paidDocuments(p.cfdi)) paidUuids.add(d.uuid);
    out.set(p.item.uploadId, o);
  }

  // The XML files are written while the rows go in; the transaction commits only once they are all
  // stored (a failed write rolls it back), so a receipt row never points at nothing. Their keys are new
  // receipt ids no reader knows before the commit: written in place (putNew), no temporary file.
  const putting = runLimited(newReceipts, PUT_CONCURRENCY, (r) => putNew(files, receiptKeys(userId, r.id).xml, r.bytes));
  putting.catch(() => undefined); // awaited inside the transaction
  const lost = await db.transaction(async (tx) => {
    const inserted = await bulkInsert(tx, receipts, receiptRowsOf(newReceipts), { onConflictDoNothing: true });
    const keptTickets = newTickets.filter((t) => inserted.has(t.receiptId!));
    await holdFeedLocks(tx, [...new Set(keptTickets.map((t) => t.clientId))]);
    await bulkInsert(tx, tickets, keptTickets);
    const payments = newPayments.filter((r) => inserted.has(r.receiptId));
    for (let i = 0; i < payments.length; i += PAYMENT_CHUNK) await tx.insert(cfdiPayments).values(payments.slice(i, i + PAYMENT_CHUNK)).onConflictDoNothing();
    // A payment changes how the invoices it pays are shown ('Pagada', 'Pago parcial'): their tickets are
    // marked changed so every device fetches them again. Not a counted column: the totals stay as they are.
    if (paidUuids.size > 0) await touchPaidTickets(tx, userId, [...new Set([...accounts, ...others].map((a) => a.clientId))], [...paidUuids], now);
    const gone = newReceipts.filter((r) => !inserted.has(r.id)).map((r) => r.id);
    // Another import stored these UUIDs between our check and our insert: theirs stand.
    if (gone.length > 0) {
      const goneTickets = new Set(gone.flatMap((g) => ticketsOfReceipt.get(g) ?? []));
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
  // After the commit, not inside: these files belong to rows that never went in, no reader knows their
  // keys, and deleting them inside would hold the batch's locks on the files store's time (a failed
  // delete leaves an orphan file, never a row pointing at nothing).
  for (const id of lost) await files.delete(receiptKeys(userId, id).xml).catch(() => undefined);
  return out;
}

/** The change feed's advisory lock class (migration 0015; tickets/changes.ts reads with it). */
const FEED_LOCK = 1952671859;

/**
 * Takes the change feed's shared lock of each account once for the transaction and names the accounts in
 * cc.feed_locked_accounts, so the tickets it then inserts there skip the feed's per-row trigger and keep
 * their column default, a sequence value taken after the lock (migration 0018): the same guarantee as the
 * trigger's, without a PL/pgSQL call per row.
 */
export async function holdFeedLocks(tx: Db, clientIds: readonly number[]): Promise<void> {
  if (clientIds.length === 0) return;
  const sorted = [...clientIds].sort((a, b) => a - b);
  await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${FEED_LOCK}::int4, c) FROM unnest(${`{${sorted.join(',')}}`}::int4[]) AS c`);
  await tx.execute(sql`SELECT set_config('cc.feed_locked_accounts', ${`,${sorted.join(',')},`}, true)`);
}

/**
 * Bumps updated_at of the user's live tickets whose receipt is one of these UUIDs (invoices a payment
 * pays), in the user's accounts `clientIds`: found by the (client_id, uuid) index, never a scan.
 */
export async function touchPaidTickets(db: Db, userId: number, clientIds: readonly number[], uuids: readonly string[], now: Date): Promise<void> {
  if (clientIds.length === 0) return;
  for (let i = 0; i < uuids.length; i += 1000) {
    const paid = await db
      .select({ id: receipts.id })
      .from(receipts)
      .where(and(inArray(receipts.clientId, [...clientIds]), inTexts(receipts.uuid, uuids.slice(i, i + 1000))));
    // Usually none (the invoice is not imported yet): then no statement touches tickets at all.
    if (paid.length === 0) continue;
    await db
      .update(tickets)
      .set({ updatedAt: now })
      .where(and(eq(tickets.userId, userId), isNull(tickets.deletedAt), inArray(tickets.receiptId, paid.map((p) => p.id))));
  }
}
