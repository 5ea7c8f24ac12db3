// Receipts stored before the books knew CFDI types (books_version 0) are re-read once from their XML
// with today's rules (cfdi/books.ts): tipo, details, seals and findings on the receipt, its cfdi_payments
// rows, and its CFDI tickets' amount, currency, original amount and type — a payment that was counted as
// money goes to 0, payroll moves to the employee's income, a credit note turns negative, a foreign
// currency keeps its Total, and a CFDI of one account to itself gets its second ticket. Manual data
// (category, note, date, photo) is never touched; the totals triggers on tickets follow the amounts.
//
// Decisions:
// - Only tickets made from the CFDI (CFDI_COMPANY_ID) or whose amount is the receipt's own are corrected:
//   a merchant's ticket that was invoiced keeps the amount its user typed.
// - A cancelled or replaced CFDI keeps its tickets at 0.00 (cfdi/cancellation.ts), type still fixed.
// - The XML is read and checked outside the transaction (PGlite serialises transactions); the write
//   re-selects the batch FOR UPDATE SKIP LOCKED and still at version 0, so two processes never write the
//   same receipt twice, and the queue is a pg-boss singleton besides.
// - A receipt whose XML is missing or unreadable is set to version 1 as it is (its id is logged), so it is
//   never a batch slot again.
// - Between receipts and between batches the loop yields to the event loop: requests go on meanwhile.
import type PgBoss from 'pg-boss';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { newIdAt } from '../../domain/ids';
import { toCents } from '../../domain/decimal';
import { CFDI_COMPANY_ID, TICKET_TYPE, type CfdiFinding, type CfdiTipo, type ReceiptDetails } from '../../domain/ticket';
import { listFactsOf, lookUpPublishedData } from '../cfdi/published-data';
import { readCfdi, type CfdiData } from '../cfdi/read';
import { listFindings, mergeFindings } from '../cfdi/rules/published-lists';
import { cfdiChecks, type CfdiChecks } from '../cfdi/verify-seals';
import type { Db } from '../db/client';
import { cfdiPayments, clients, receipts, tickets } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { bookAmount, booksInstant, detailsOf, paidDocuments, paymentRowsOf, sidesOf, ticketRowOf, type BookAmount, type BookSide } from '../cfdi/books';
import { bulkInsert } from './bulk-insert';
import { runLimited, touchPaidTickets } from './import-cfdi';

export const RECLASSIFY_QUEUE = 'books-reclassify';
/** Receipts per transaction. */
export const RECLASSIFY_BATCH = 200;
/** Parallel reads from the files store. */
const READ_CONCURRENCY = 16;
/** Receipts checked between two yields to the event loop (a seal check is about a millisecond). */
const YIELD_EVERY = 10;

const yieldToLoop = () => new Promise<void>((ok) => setImmediate(ok));

interface Row {
  id: string;
  userId: number;
  clientId: number;
  xmlKey: string;
  amountMxn: string;
  gone: boolean;
  rfc: string;
}

interface Reading {
  row: Row;
  cfdi: CfdiData | null;
  checks: CfdiChecks | null;
}

interface TicketRow {
  id: string;
  receiptId: string;
  type: number;
  companyId: number;
  amount: string;
  currency: string;
  originalAmount: string | null;
  receivedAt: Date;
  deleted: boolean;
}

export interface ReclassifyRun {
  /** Receipts set to version 1. */
  receipts: number;
  /** Tickets corrected or added. */
  tickets: number;
}

/** Payroll swaps the sides' books; any other type keeps the ones an old import gave (receptor spending, emisor income). */
const oldTypeOf = (tipo: CfdiTipo, type: number) =>
  tipo !== 'N' ? type : type === TICKET_TYPE.expense ? TICKET_TYPE.incomeCfdi : TICKET_TYPE.expense;

/** Same decimal value: numeric comes back as '100.00', books.ts writes '100.00', but '100' may be stored. */
const sameMoney = (a: string | null, b: string | null) => (a === null || b === null ? a === b : toCents(a) !== null && toCents(a) === toCents(b));

/** The next receipts still at version 0 (ids only: the lock is taken when writing). */
async function nextBatch(db: Db, size: number): Promise<Row[]> {
  const rows = await db
    .select({
      id: receipts.id,
      userId: receipts.userId,
      clientId: receipts.clientId,
      xmlKey: receipts.xmlKey,
      amountMxn: receipts.amountMxn,
      cancelStatus: receipts.cancelStatus,
      replacedBy: receipts.replacedBy,
      satStatus: receipts.satStatus,
      rfc: clients.rfc,
    })
    .from(receipts)
    .innerJoin(clients, eq(clients.id, receipts.clientId))
    .where(eq(receipts.booksVersion, 0))
    .orderBy(asc(receipts.id))
    .limit(size);
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    clientId: r.clientId,
    xmlKey: r.xmlKey,
    amountMxn: r.amountMxn,
    rfc: r.rfc,
    gone: r.cancelStatus === 'cancelada' || r.replacedBy !== null || r.satStatus === 'Cancelado',
  }));
}

/** Reads and checks each receipt's XML; null where it is missing or not a CFDI we read. */
async function readAll(files: FileStore, rows: readonly Row[]): Promise<Reading[]> {
  const bytes = new Map<string, Uint8Array | null>();
  await runLimited(rows, READ_CONCURRENCY, async (r) => {
    bytes.set(r.id, await files.get(r.xmlKey).catch(() => null));
  });
  const out: Reading[] = [];
  for (const [i, row] of rows.entries()) {
    if (i > 0 && i % YIELD_EVERY === 0) await yieldToLoop();
    const b = bytes.get(row.id) ?? null;
    const read = b ? readCfdi(b) : null;
    // Not a CFDI we read: its seals are still checked when there are bytes (cfdiChecks never throws).
    const checks = b ? cfdiChecks(b) : null;
    if (!read?.ok) console.warn(`[libros] recibo ${row.id}: XML ${b ? 'ilegible' : 'ausente'}; se marca como releído`);
    out.push({ row, cfdi: read?.ok ? read.cfdi : null, checks });
  }
  return out;
}

interface Plan {
  receipts: { id: string; tipo: string | null; details: ReceiptDetails | null; seal: string | null; seal_sat: string | null; findings: CfdiFinding[] | null }[];
  updates: { id: string; amount: string; currency: string; original_amount: string | null; type: number }[];
  inserts: (typeof tickets.$inferInsert)[];
  payments: (typeof cfdiPayments.$inferInsert)[];
  /** Per user: the invoice UUIDs their new payment rows pay (their tickets' payment state changes). */
  paid: Map<number, { clientIds: Set<number>; uuids: Set<string> }>;
}

/** What a receipt's tickets should be: its sides matched to the tickets an old import made. */
function planTickets(r: Reading & { cfdi: CfdiData }, book: BookAmount, own: readonly TicketRow[], now: Date, plan: Plan): void {
  const c = r.cfdi;
  const counted: BookAmount = r.row.gone ? { amount: '0.00', currency: book.currency, originalAmount: book.originalAmount === null ? null : '0.00' } : book;
  // Tickets the CFDI made or whose amount it gave; the rest are the user's own figures.
  const eligible = own.filter((t) => t.companyId === CFDI_COMPANY_ID || sameMoney(t.amount, r.row.amountMxn));
  const sides: BookSide[] = sidesOf(c, new Map([[r.row.rfc.toUpperCase(), [r.row.clientId]]]));
  const claimed = new Set<string>();
  const matched: { side: BookSide; ticket: TicketRow | undefined }[] = [];
  for (const side of sides) {
    const old = oldTypeOf(c.tipoDeComprobante, side.type);
    const ticket = eligible.find((t) => !claimed.has(t.id) && t.type === old) ?? eligible.find((t) => !claimed.has(t.id) && t.type === side.type);
    if (ticket) claimed.add(ticket.id);
    matched.push({ side, ticket });
  }
  // The account's RFC is on neither side (an account renamed since): its tickets keep their books.
  const fix = sides.length > 0 ? matched : eligible.map((t) => ({ side: { clientId: r.row.clientId, type: t.type }, ticket: t }));
  const live = fix.filter((m) => m.ticket && !m.ticket.deleted);
  for (const { side, ticket } of live) {
    const t = ticket!;
    if (sameMoney(t.amount, counted.amount) && t.currency === counted.currency && sameMoney(t.originalAmount, counted.originalAmount) && t.type === side.type) continue;
    plan.updates.push({ id: t.id, amount: counted.amount, currency: counted.currency, original_amount: counted.originalAmount, type: side.type });
  }
  // A side no ticket stands for (the same account on both sides got one ticket): made now, next to its
  // sibling. Only when the CFDI's own ticket is alive: a receipt whose tickets the user deleted stays so.
  const sibling = live.find((m) => m.ticket!.companyId === CFDI_COMPANY_ID)?.ticket;
  if (!sibling) return;
  for (const { side, ticket } of matched) {
    if (ticket) continue;
    plan.inserts.push(
      ticketRowOf(c, {
        id: newIdAt(sibling.receivedAt.getTime()),
        userId: r.row.userId,
        side,
        receiptId: r.row.id,
        receivedAt: sibling.receivedAt,
        book: counted,
        metaTagId: null,
        incomeMetaTagId: null,
        now,
      }),
    );
  }
}

async function planBatch(db: Db, readings: readonly Reading[], now: Date): Promise<Plan> {
  const plan: Plan = { receipts: [], updates: [], inserts: [], payments: [], paid: new Map() };
  const ids = readings.map((r) => r.row.id);
  const own = await db
    .select({
      id: tickets.id,
      receiptId: tickets.receiptId,
      type: tickets.type,
      companyId: tickets.companyId,
      amount: tickets.amount,
      currency: tickets.currency,
      originalAmount: tickets.originalAmount,
      receivedAt: tickets.receivedAt,
      deletedAt: tickets.deletedAt,
    })
    .from(tickets)
    .where(inArray(tickets.receiptId, ids))
    .orderBy(asc(tickets.createdAt), asc(tickets.id));
  const byReceipt = new Map<string, TicketRow[]>();
  for (const t of own) byReceipt.set(t.receiptId!, [...(byReceipt.get(t.receiptId!) ?? []), { ...t, receiptId: t.receiptId!, deleted: t.deletedAt !== null }]);
  // SAT's rules that need published data (the day's rate, cancelled RFCs): one lookup for the batch.
  const listed = readings.flatMap((r) => (r.cfdi ? (listFactsOf(r.cfdi) ?? []) : []));
  const published = await lookUpPublishedData(db, listed);
  for (const r of readings) {
    if (!r.cfdi || !r.checks) {
      plan.receipts.push({ id: r.row.id, tipo: null, details: null, seal: r.checks?.seal ?? null, seal_sat: r.checks?.sealSat ?? null, findings: r.checks?.findings ?? null });
      continue;
    }
    const c = r.cfdi;
    const facts = listFactsOf(c);
    plan.receipts.push({
      id: r.row.id,
      tipo: c.tipoDeComprobante,
      details: detailsOf(c),
      seal: r.checks.seal,
      seal_sat: r.checks.sealSat,
      findings: facts ? mergeFindings(r.checks.findings, listFindings(facts, published)) : r.checks.findings,
    });
    const payments = paymentRowsOf(c, r.row.clientId, r.row.id);
    plan.payments.push(...payments);
    if (payments.length > 0) {
      const p = plan.paid.get(r.row.userId) ?? { clientIds: new Set(), uuids: new Set() };
      p.clientIds.add(r.row.clientId);
      for (const d of paidDocuments(c)) p.uuids.add(d.uuid);
      plan.paid.set(r.row.userId, p);
    }
    // A figure that does not fit a ticket (a hostile file): the tickets keep what they have.
    const book = bookAmount(c);
    if (book && !Number.isNaN(booksInstant(c).getTime())) planTickets({ ...r, cfdi: c }, book, byReceipt.get(r.row.id) ?? [], now, plan);
  }
  return plan;
}

/** Writes one planned batch in a transaction; answers the receipts and tickets written. */
async function writeBatch(db: Db, plan: Plan, now: Date): Promise<ReclassifyRun> {
  return db.transaction(async (tx) => {
    // Still at version 0 and not being written by another process: only those are ours.
    const locked = await tx.execute(sql`
      SELECT id FROM receipts WHERE id IN (${sql.join(plan.receipts.map((r) => sql`${r.id}::uuid`), sql`, `)}) AND books_version = 0
      FOR UPDATE SKIP LOCKED`);
    const mine = new Set(rowsOf<{ id: string }>(locked).map((r) => String(r.id)));
    if (mine.size === 0) return { receipts: 0, tickets: 0 };
    const rows = plan.receipts.filter((r) => mine.has(r.id));
    // One statement for the batch: the rows travel as one jsonb parameter (bulk-insert.ts's way).
    await tx.execute(sql`
      UPDATE receipts AS r SET
        tipo = COALESCE(v.tipo, r.tipo),
        details = COALESCE(v.details, r.details),
        seal = COALESCE(v.seal, r.seal),
        seal_sat = COALESCE(v.seal_sat, r.seal_sat),
        findings = COALESCE(v.findings, r.findings),
        books_version = 1
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id uuid, tipo text, details jsonb, seal text, seal_sat text, findings jsonb)
      WHERE r.id = v.id`);
    const touched = new Set<string>();
    if (plan.updates.length > 0) {
      const changed = await tx.execute(sql`
        UPDATE tickets AS t SET amount = v.amount, currency = v.currency, original_amount = v.original_amount, type = v.type, updated_at = ${now.toISOString()}::timestamptz
        FROM jsonb_to_recordset(${JSON.stringify(plan.updates)}::jsonb) AS v(id uuid, amount numeric, currency text, original_amount numeric, type smallint)
        WHERE t.id = v.id AND t.deleted_at IS NULL AND t.receipt_id IN (${sql.join([...mine].map((id) => sql`${id}::uuid`), sql`, `)})
        RETURNING t.id`);
      for (const t of rowsOf<{ id: string }>(changed)) touched.add(String(t.id));
    }
    const inserted = await bulkInsert(tx, tickets, plan.inserts.filter((t) => mine.has(t.receiptId!)));
    // A CFDI cancelled or replaced since the batch was planned stays out of the totals: its row is locked
    // now, so what it says here is final for this transaction (as markCfdiCancelled zeroes them).
    const zeroed = await tx.execute(sql`
      UPDATE tickets AS t SET amount = 0, original_amount = CASE WHEN t.original_amount IS NULL THEN NULL ELSE 0 END, updated_at = ${now.toISOString()}::timestamptz
      FROM receipts AS r
      WHERE r.id = t.receipt_id AND r.id IN (${sql.join([...mine].map((id) => sql`${id}::uuid`), sql`, `)}) AND t.deleted_at IS NULL
        AND (r.cancel_status = 'cancelada' OR r.replaced_by IS NOT NULL OR r.sat_status = 'Cancelado')
        AND (t.amount <> 0 OR t.original_amount <> 0)
      RETURNING t.id`);
    for (const t of rowsOf<{ id: string }>(zeroed)) touched.add(String(t.id));
    const payments = plan.payments.filter((p) => mine.has(p.receiptId));
    for (let i = 0; i < payments.length; i += 500) await tx.insert(cfdiPayments).values(payments.slice(i, i + 500)).onConflictDoNothing();
    // The invoices these payments pay now show 'Pagada' / 'Pago parcial': their tickets are pulled again.
    for (const [userId, p] of plan.paid) await touchPaidTickets(tx, userId, [...p.clientIds], [...p.uuids], now);
    return { receipts: mine.size, tickets: touched.size + inserted.size };
  });
}

function rowsOf<R>(result: unknown): R[] {
  if (Array.isArray(result)) return result as R[];
  return ((result as { rows?: R[] }).rows ?? []) as R[];
}

/** One batch of version-0 receipts re-read and written; answers what it did (0 receipts: none left). */
export async function reclassifyBatch(db: Db, files: FileStore, opts: { batch?: number; now?: Date } = {}): Promise<ReclassifyRun & { seen: number }> {
  const now = opts.now ?? new Date();
  const rows = await nextBatch(db, opts.batch ?? RECLASSIFY_BATCH);
  if (rows.length === 0) return { receipts: 0, tickets: 0, seen: 0 };
  const readings = await readAll(files, rows);
  const plan = await planBatch(db, readings, now);
  return { ...(await writeBatch(db, plan, now)), seen: rows.length };
}

/** Every version-0 receipt, batch after batch, yielding between them; answers the totals. */
export async function reclassifyAll(db: Db, files: FileStore, opts: { batch?: number; now?: () => Date } = {}): Promise<ReclassifyRun> {
  const total: ReclassifyRun = { receipts: 0, tickets: 0 };
  for (;;) {
    const run = await reclassifyBatch(db, files, { batch: opts.batch, now: opts.now?.() });
    total.receipts += run.receipts;
    total.tickets += run.tickets;
    if (run.seen === 0) return total;
    // Another process holds the whole batch: give it time rather than spin on the same rows.
    if (run.receipts === 0) await new Promise((ok) => setTimeout(ok, 1_000));
    else await yieldToLoop();
  }
}

/**
 * The job that re-reads the receipts stored before (main.ts, once per start): a singleton queue, so
 * several processes starting together run it once; a process finding nothing left ends at once.
 */
export async function registerReclassify(boss: PgBoss, db: Db, files: FileStore): Promise<void> {
  await boss.createQueue(RECLASSIFY_QUEUE, { name: RECLASSIFY_QUEUE, policy: 'singleton', retryLimit: 5, retryDelay: 60, retryBackoff: true });
  await boss.work(RECLASSIFY_QUEUE, async () => {
    const run = await reclassifyAll(db, files, { now: () => new Date() });
    if (run.receipts > 0) console.log(`[libros] ${run.receipts} recibos releídos con las reglas actuales; ${run.tickets} tickets corregidos`);
  });
  // Nothing to send when every receipt is read already (the partial index answers at once).
  const [left] = await db.select({ id: receipts.id }).from(receipts).where(eq(receipts.booksVersion, 0)).limit(1);
  if (left) await boss.send(RECLASSIFY_QUEUE, {});
}
