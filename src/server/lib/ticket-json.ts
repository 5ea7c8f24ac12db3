// Rows → the ticket JSON of DESIGN §3, read with one joined query (owner's username, RFC, company, tag),
// plus, for tickets of merchants, the latest invoice request ('Where is my invoice?'), and for a
// page of CFDI tickets what the books need to show (DESIGN §5): how an invoice paid in parcialidades
// stands by its payment CFDI, and the CFDI a re-issued invoice replaced. Each of these is ONE query per
// page (and only when the page has such tickets): the month list is the hottest route.
import { and, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { formatCents, toCents } from '../../domain/decimal';
import type { TicketInvoice } from '../../domain/invoicing';
import type { CancelStatus, CfdiFinding, CfdiTipo, ReceiptPayment, SealState, Ticket } from '../../domain/ticket';
import { statusName } from '../../domain/ticket';
import { preparedRows, type Db } from '../db/client';
import { cfdiPayments, clients, companies, invoiceRequests, metaTags, receipts, tickets, users } from '../db/schema';
import { ticketReviews } from '../db/schema-company';
import { mexicoCityIso } from '../../domain/mexico-time';
import { normalizeRfc } from '../../domain/rfc';

/** The ticket JSON with its invoice request: null for tickets that were never requested. */
export type TicketJson = Ticket & { invoice: TicketInvoice | null };

/** The columns the ticket JSON is made of (ticketQuery's and the month list's). */
const TICKET_FIELDS = {
  id: tickets.id,
  userId: tickets.userId,
  clientId: tickets.clientId,
  type: tickets.type,
  statusId: tickets.statusId,
  receivedAt: tickets.receivedAt,
  companyShortName: companies.shortName,
  companyKind: companies.kind,
  ticketNumber: tickets.ticketNumber,
  amount: tickets.amount,
  metaTagId: tickets.metaTagId,
  tagName: metaTags.metaTag,
  incomeMetaTagId: tickets.incomeMetaTagId,
  note: tickets.note,
  imageKey: tickets.imageKey,
  username: users.username,
  rfc: clients.rfc,
  currency: tickets.currency,
  originalAmount: tickets.originalAmount,
  receipt: {
    id: receipts.id,
    rfcIssuer: receipts.rfcIssuer,
    nameIssuer: receipts.nameIssuer,
    rfcReceiver: receipts.rfcReceiver,
    nameReceiver: receipts.nameReceiver,
    emissionDate: receipts.emissionDate,
    uuid: receipts.uuid,
    impTras: receipts.impTras,
    impRet: receipts.impRet,
    metodoPago: receipts.metodoPago,
    numCtaPago: receipts.numCtaPago,
    satStatus: receipts.satStatus,
    tipo: receipts.tipo,
    total: receipts.total,
    details: receipts.details,
    seal: receipts.seal,
    sealSat: receipts.sealSat,
    findings: receipts.findings,
    cancelStatus: receipts.cancelStatus,
    replacedBy: receipts.replacedBy,
  },
  reviewDecision: ticketReviews.decision,
  reviewReason: ticketReviews.reason,
};

/** Exported for the company expense view (src/server/company-view), which adds its own joins. */
export function ticketQuery(db: Db) {
  return db
    .select(TICKET_FIELDS)
    .from(tickets)
    .innerJoin(clients, eq(clients.id, tickets.clientId))
    .innerJoin(users, eq(users.id, tickets.userId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(metaTags, eq(metaTags.id, tickets.metaTagId))
    .leftJoin(receipts, eq(receipts.id, tickets.receiptId))
    .leftJoin(ticketReviews, eq(ticketReviews.ticketId, tickets.id));
}

export type Row = Awaited<ReturnType<ReturnType<typeof ticketQuery>['execute']>>[number];

/** What other rows say about a ticket's CFDI: its payments, the CFDI it replaced (see booksOf). */
export interface ReceiptLinks {
  payment?: ReceiptPayment | null;
  replaces?: { uuid: string; cancel_status: CancelStatus | null }[];
}

export function toTicket(r: Row, invoice: TicketInvoice | null = null, links: ReceiptLinks = {}): TicketJson {
  return {
    ticket_id: r.id,
    ticket_type_id: r.type,
    ticket_status_name: statusName(r.statusId) ?? 'guardado',
    received_at: mexicoCityIso(r.receivedAt),
    company_short_name: r.companyShortName,
    ticket_number: r.ticketNumber,
    amount: r.amount,
    tags: r.metaTagId !== null && r.tagName !== null ? [{ tag_id: r.metaTagId, tag_name: r.tagName }] : [],
    income_meta_tag_id: r.incomeMetaTagId,
    note: r.note,
    include_ticket_image: r.imageKey !== null,
    ticket_image_text: '',
    user_area: '',
    username: r.username,
    receipt: r.receipt
      ? {
          receipt_id: r.receipt.id,
          rfc_issuer: r.receipt.rfcIssuer,
          name_issuer: r.receipt.nameIssuer,
          rfc_receiver: r.receipt.rfcReceiver,
          name_receiver: r.receipt.nameReceiver,
          emission_date: r.receipt.emissionDate,
          uuid: r.receipt.uuid,
          imp_tras: r.receipt.impTras,
          imp_ret: r.receipt.impRet,
          metodo_pago: r.receipt.metodoPago,
          numctapago: r.receipt.numCtaPago,
          sat_status: r.receipt.satStatus,
          tipo: r.receipt.tipo as CfdiTipo,
          total: r.receipt.total,
          details: r.receipt.details,
          seal: r.receipt.seal as SealState,
          seal_sat: r.receipt.sealSat as SealState,
          findings: r.receipt.findings as CfdiFinding[],
          cancel_status: r.receipt.cancelStatus as CancelStatus | null,
          replaced_by: r.receipt.replacedBy,
          ...(links.payment !== undefined ? { payment: links.payment } : {}),
          replaces: links.replaces ?? [],
        }
      : null,
    rfc: r.rfc,
    currency: r.currency,
    original_amount: r.originalAmount,
    // Only reviewed tickets carry `review`, so every other ticket's JSON is unchanged.
    ...(r.reviewDecision === 'aprobado' || r.reviewDecision === 'rechazado' ? { review: { decision: r.reviewDecision, reason: r.reviewReason } } : {}),
    invoice,
  };
}

/** The latest invoice request of each merchant ticket among rows (one query per 1,000 tickets). */
async function invoicesOf(db: Db, rows: readonly Row[]): Promise<Map<string, TicketInvoice>> {
  const ids = rows.filter((r) => r.companyKind === 'merchant').map((r) => r.id);
  const out = new Map<string, TicketInvoice>();
  for (let i = 0; i < ids.length; i += 1000) {
    const found = await db
      .select({ ticketId: invoiceRequests.ticketId, id: invoiceRequests.id, status: invoiceRequests.status, email: invoiceRequests.email, error: invoiceRequests.error, updatedAt: invoiceRequests.updatedAt })
      .from(invoiceRequests)
      .where(inArray(invoiceRequests.ticketId, ids.slice(i, i + 1000)))
      .orderBy(desc(invoiceRequests.createdAt), desc(invoiceRequests.id));
    for (const f of found) {
      if (!f.ticketId || out.has(f.ticketId)) continue;
      out.set(f.ticketId, {
        request_id: f.id, status: f.status as TicketInvoice['status'], email: f.email, error: f.error, updated_at: f.updatedAt.toISOString(),
      });
    }
  }
  return out;
}

/** An invoice paid in parcialidades (PPD): its payments decide how it is shown. */
const isPpdInvoice = (r: Row) => r.receipt !== null && r.receipt.tipo === 'I' && r.receipt.metodoPago === 'PPD';

/** A payment of one document, as the payment CFDI of the owner's accounts state it. */
interface PaidPart {
  key: string;
  installment: number;
  paidAt: string;
  seq: number;
  paid: bigint;
  balance: bigint | null;
}

/** 'pagada' when the last balance is 0 or the payments reach the total; 'parcial' with what is owed; 'pendiente' without payments. */
export function paymentState(total: string, parts: readonly PaidPart[]): ReceiptPayment {
  const owed = toCents(total) ?? 0n;
  if (parts.length === 0) return { status: 'pendiente', balance: formatCents(owed) };
  const ordered = [...parts].sort((a, b) => a.installment - b.installment || (a.paidAt < b.paidAt ? -1 : a.paidAt > b.paidAt ? 1 : 0) || a.seq - b.seq);
  const paid = ordered.reduce((sum, p) => sum + p.paid, 0n);
  const last = ordered[ordered.length - 1]!.balance;
  if (last === 0n || paid >= owed) return { status: 'pagada', balance: '0.00' };
  return { status: 'parcial', balance: formatCents(last ?? owed - paid) };
}

/**
 * For a page of rows: the payment state of each PPD invoice (payment CFDI in any account of the ticket's
 * owner whose DoctoRelacionado names its UUID; a payment filed in two accounts counts once) and the CFDI
 * each re-issued invoice replaced (its CfdiRelacionados of type 04 in the same account, whose
 * replaced_by is this invoice). One query each, by index, and none when no row needs it.
 */
async function linksOf(db: Db, rows: readonly Row[]): Promise<Map<string, ReceiptLinks>> {
  const out = new Map<string, ReceiptLinks>();
  const ppd = rows.filter(isPpdInvoice);
  if (ppd.length > 0) {
    const owners = [...new Set(ppd.map((r) => r.userId))];
    const uuids = [...new Set(ppd.map((r) => r.receipt!.uuid))];
    const parts = new Map<string, Map<string, PaidPart>>(); // userId|document uuid → payment key → part
    for (let i = 0; i < uuids.length; i += 1000) {
      const found = await db
        .select({
          userId: clients.userId,
          document: cfdiPayments.documentUuid,
          paymentUuid: receipts.uuid,
          seq: cfdiPayments.seq,
          installment: cfdiPayments.numParcialidad,
          paid: cfdiPayments.impPagado,
          balance: cfdiPayments.impSaldoInsoluto,
          paidAt: cfdiPayments.paidAt,
        })
        .from(cfdiPayments)
        .innerJoin(clients, eq(clients.id, cfdiPayments.clientId))
        .innerJoin(receipts, eq(receipts.id, cfdiPayments.receiptId))
        .where(and(inArray(clients.userId, owners), inArray(cfdiPayments.documentUuid, uuids.slice(i, i + 1000))));
      for (const f of found) {
        const k = `${f.userId}|${f.document}`;
        const m = parts.get(k) ?? new Map<string, PaidPart>();
        const key = `${f.paymentUuid}|${f.seq}`;
        const balance = f.balance === null ? null : toCents(f.balance);
        m.set(key, { key, installment: f.installment ?? 0, paidAt: f.paidAt, seq: f.seq, paid: toCents(f.paid) ?? 0n, balance });
        parts.set(k, m);
      }
    }
    for (const r of ppd) out.set(r.id, { payment: paymentState(r.receipt!.total, [...(parts.get(`${r.userId}|${r.receipt!.uuid}`)?.values() ?? [])]) });
  }
  const replacing = rows.filter((r) => r.receipt?.details.related?.some((x) => x.type === '04'));
  if (replacing.length > 0) {
    const clientIds = [...new Set(replacing.map((r) => r.clientId))];
    const olds = [...new Set(replacing.flatMap((r) => r.receipt!.details.related!.filter((x) => x.type === '04').flatMap((x) => x.uuids)))];
    const found: { clientId: number; uuid: string; replacedBy: string | null; cancelStatus: string | null; createdAt: Date }[] = [];
    for (let i = 0; i < olds.length; i += 1000) {
      found.push(
        ...(await db
          .select({ clientId: receipts.clientId, uuid: receipts.uuid, replacedBy: receipts.replacedBy, cancelStatus: receipts.cancelStatus, createdAt: receipts.createdAt })
          .from(receipts)
          .where(and(inArray(receipts.clientId, clientIds), inArray(receipts.uuid, olds.slice(i, i + 1000))))),
      );
    }
    // Newest first.
    found.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.uuid < b.uuid ? 1 : -1));
    for (const r of replacing) {
      const replaces = found
        .filter((f) => f.clientId === r.clientId && f.replacedBy?.toUpperCase() === r.receipt!.uuid)
        .map((f) => ({ uuid: f.uuid, cancel_status: f.cancelStatus as CancelStatus | null }));
      if (replaces.length > 0) out.set(r.id, { ...out.get(r.id), replaces });
    }
  }
  return out;
}

/** One live ticket of that user, or undefined. */
export async function findTicket(db: Db, userId: number, ticketId: string): Promise<TicketJson | undefined> {
  const [row] = await ticketQuery(db).where(and(eq(tickets.id, ticketId), eq(tickets.userId, userId), isNull(tickets.deletedAt)));
  if (!row) return undefined;
  const invoices = await invoicesOf(db, [row]);
  const links = await linksOf(db, [row]);
  return toTicket(row, invoices.get(row.id) ?? null, links.get(row.id));
}

// The month list is the route phones call most: the caller's account with that RFC and its live tickets
// in [from, to) come in ONE statement (a range on the (client_id, received_at) index), prepared once per
// database: built once here, and on PostgreSQL parsed and planned once per connection.
const rangeStatements = new WeakMap<Db, ReturnType<typeof prepareOwnRange>>();
const prepareOwnRange = (db: Db) =>
  db
    .select({ ownClientId: clients.id, ...TICKET_FIELDS })
    .from(clients)
    .leftJoin(
      tickets,
      and(eq(tickets.clientId, clients.id), gte(tickets.receivedAt, sql.placeholder('from')), lt(tickets.receivedAt, sql.placeholder('to')), isNull(tickets.deletedAt)),
    )
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(metaTags, eq(metaTags.id, tickets.metaTagId))
    .leftJoin(receipts, eq(receipts.id, tickets.receiptId))
    .leftJoin(ticketReviews, eq(ticketReviews.ticketId, tickets.id))
    .where(and(eq(clients.userId, sql.placeholder('userId')), eq(clients.rfc, sql.placeholder('rfc'))))
    .orderBy(desc(tickets.receivedAt), desc(tickets.createdAt), desc(tickets.id))
    .prepare('own_tickets_in_range');

/**
 * The live tickets in [from, to) of the caller's tax account with that RFC, newest first; undefined when
 * the caller has no such account (another user's RFC is indistinguishable from an unknown one).
 */
export async function ownTicketsInRange(db: Db, userId: number, rfc: string, from: Date, to: Date): Promise<TicketJson[] | undefined> {
  let stmt = rangeStatements.get(db);
  if (!stmt) rangeStatements.set(db, (stmt = prepareOwnRange(db)));
  const found = await stmt.execute({ userId, rfc: normalizeRfc(rfc), from: from.toISOString(), to: to.toISOString() });
  if (found.length === 0) return undefined;
  // An account without tickets in the range is one row whose ticket columns are all null.
  const rows = found.filter((r) => r.id !== null) as Row[];
  const invoices = await invoicesOf(db, rows);
  const links = await linksOf(db, rows);
  return rows.map((r) => toTicket(r, invoices.get(r.id) ?? null, links.get(r.id)));
}

// The month list again, as JSON text kept per process: phones ask for the same months over and over, and
// shaping them (rows → ticket JSON → text) cost far more than the database's part. Each request still asks
// the database, in one small statement, for the account and a version of the range: the count, the sum and
// a hash-sum of the change_seq of the range's tickets (deleted ones included). Every write that can change
// a ticket's JSON gives the ticket a new, larger change_seq (migration 0015: the ticket itself, its CFDI,
// its invoice request, its review, a payment of it), and one that moves or removes a ticket changes the
// count or the sums, so an unchanged version means an unchanged list — in this process and in any other,
// with no invalidation to miss. Not covered by change_seq, so never kept: a list with a CFDI that replaces
// another (its `replaces` shows the other CFDI's state, whose changes do not always touch this ticket).
// Usernames, company names and tag names are written only by the seed, before the server serves.
const KEPT_MAX_ENTRIES = 2_000;
const KEPT_MAX_CHARS = 32 * 1024 * 1024;

interface Kept {
  version: string;
  json: string;
}

/** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
class KeptLists {
  private readonly map = new Map<string, Kept>();
  private chars = 0;

  get(key: string): Kept | undefined {
    const e = this.map.get(key);
    if (e) {
      this.map.delete(key);
      this.map.set(key, e);
    }
    return e;
  }

  set(key: string, e: Kept): void {
    this.delete(key);
    if (e.json.length > KEPT_MAX_CHARS / 4) return;
    this.map.set(key, e);
    this.chars += e.json.length;
    for (const [k, old] of this.map) {
      if (this.map.size <= KEPT_MAX_ENTRIES && this.chars <= KEPT_MAX_CHARS) break;
      this.map.delete(k);
      this.chars -= old.json.length;
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.chars -= old.json.length;
  }
}

const keptLists = new WeakMap<Db, KeptLists>();
/** The account with that RFC of the caller, and the version of its tickets in [$3, $4). */
const RANGE_VERSION_SQL = `SELECT c.id, (SELECT count(*) || ':' || coalesce(sum(t.change_seq), 0) || ':' || coalesce(sum(hashint8extended(t.change_seq, 0)), 0)
    FROM tickets t WHERE t.client_id = c.id AND t.received_at >= $3::timestamptz AND t.received_at < $4::timestamptz)
  FROM clients c WHERE c.user_id = $1 AND c.rfc = $2`;
const RANGE_VERSION_NAME = 'own_range_version';

const replacesAnother = (t: TicketJson): boolean => t.receipt?.details?.related?.some((x) => x.type === '04') ?? false;

/**
 * ownTicketsInRange as JSON text (JSON.stringify of its list, byte for byte), from this process's copy
 * while the range's version is unchanged; undefined when the caller has no account with that RFC.
 */
export async function ownTicketsInRangeJson(db: Db, userId: number, rfc: string, from: Date, to: Date): Promise<string | undefined> {
  let kept = keptLists.get(db);
  if (!kept) keptLists.set(db, (kept = new KeptLists()));
  const owned = normalizeRfc(rfc);
  const range = { from: from.toISOString(), to: to.toISOString() };
  // Read before the list: a write between the two leaves a version older than the list, so the next
  // request sees another version and reads again (never the other way round). Straight to the driver, as
  // a statement each connection parses and plans once: this runs on every month list, and the query
  // builder's own work (and, on PGlite, its five calls per query) cost more than the statement.
  const [head] = await preparedRows<[clientId: number, version: string]>(db, RANGE_VERSION_NAME, RANGE_VERSION_SQL, [userId, owned, range.from, range.to]);
  if (!head) return undefined;
  const [clientId, current] = head;
  const key = `${clientId}|${owned}|${range.from}|${range.to}`;
  const hit = kept.get(key);
  if (hit && hit.version === current) return hit.json;
  const list = await ownTicketsInRange(db, userId, rfc, from, to);
  if (!list) {
    kept.delete(key);
    return undefined;
  }
  const json = JSON.stringify(list);
  if (list.some(replacesAnother)) kept.delete(key);
  else kept.set(key, { version: current, json });
  return json;
}

/** The live tickets of one tax account among ids, in no particular order (the change feed's page). */
export async function ticketsById(db: Db, clientId: number, ids: readonly string[]): Promise<TicketJson[]> {
  const rows: Row[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    rows.push(...(await ticketQuery(db).where(and(eq(tickets.clientId, clientId), inArray(tickets.id, ids.slice(i, i + 1000)), isNull(tickets.deletedAt)))));
  }
  const invoices = await invoicesOf(db, rows);
  const links = await linksOf(db, rows);
  return rows.map((r) => toTicket(r, invoices.get(r.id) ?? null, links.get(r.id)));
}
