// What a CFDI means in the books (DESIGN §5), in one place: every path that turns a CFDI into tickets —
// the import batch, the demo's invoices, the SAT sync (through the import) — asks this module which
// accounts get a ticket, of which type, for how much and on which day. A ticket's `amount` is what it
// counts in the books; the month totals (triggers on tickets), analytics and CSV only add amounts up.
//
// - I ingreso: receptor → spending, emisor → income, the Total in MXN at emission. An invoice paid in
//   parcialidades (PPD) counts at emission too (accrual): its payments only mark it paid.
// - E egreso (credit note): the same books with a NEGATIVE amount, in the credit note's month.
// - P pago: amount 0 (a document: the invoice it pays was counted already); one cfdi_payments row per
//   DoctoRelacionado links it to the invoices it pays.
// - N nómina: receptor (the employee) → income, emisor (the employer) → spending; amount = Total (net pay).
// - T traslado: amount 0.
// - Foreign currency: currency = Moneda and original_amount = Total, amount = MXN at TipoCambio. XXX
//   (a P's Moneda) is MXN.
// - Emisor and receptor both the user's (even the same account): both books, one receipt per account.
// - The day: Fecha read at LugarExpedicion's time zone (a CFDI's Fecha is local wall time there).
import { instantOfCfdiFecha } from '../../domain/cfdi-time-zone';
import { formatCents, toCents } from '../../domain/decimal';
import { CFDI_COMPANY_ID, TICKET_TYPE, type CfdiTipo, type ReceiptDetails } from '../../domain/ticket';
import type { CfdiData } from './read';
import type { cfdiPayments, tickets } from '../db/schema';

const FACTURADO = 4;
/** tickets.amount and original_amount are numeric(14,2): |x| < 10^12 pesos. */
const LIMIT_CENTS = 10n ** 14n;
/** Payment figures are numeric(18,2). */
const PAYMENT_LIMIT_CENTS = 10n ** 18n;
/** Enough for any real CFDI; a hostile file cannot make a receipt's details huge. */
const MAX_RELATED = 200;
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/** Which books a side of the CFDI goes to, by tipo: nómina is the employee's income and the employer's spending. */
export function typeOfSide(tipo: CfdiTipo, side: 'receptor' | 'emisor'): number {
  const receives = side === 'receptor';
  if (tipo === 'N') return receives ? TICKET_TYPE.incomeCfdi : TICKET_TYPE.expense;
  return receives ? TICKET_TYPE.expense : TICKET_TYPE.incomeCfdi;
}

export interface BookSide {
  clientId: number;
  /** TICKET_TYPE.expense or TICKET_TYPE.incomeCfdi. */
  type: number;
}

/**
 * The tickets a CFDI makes among accounts (RFC → account ids): receptor side first, then emisor. The same
 * account on both sides gets both (two tickets on one receipt).
 */
export function sidesOf(c: CfdiData, accountsByRfc: ReadonlyMap<string, readonly number[]>): BookSide[] {
  const out: BookSide[] = [];
  for (const clientId of accountsByRfc.get(c.receiver.rfc.toUpperCase()) ?? []) out.push({ clientId, type: typeOfSide(c.tipoDeComprobante, 'receptor') });
  for (const clientId of accountsByRfc.get(c.issuer.rfc.toUpperCase()) ?? []) out.push({ clientId, type: typeOfSide(c.tipoDeComprobante, 'emisor') });
  return out;
}

/**
 * The instant the books date the CFDI at. The books are kept by Mexico City calendar, and a CFDI belongs
 * to the day and month its Fecha names (SAT files it there, and that is the date printed on it): a
 * Tijuana invoice of 31 January at 22:30 is January's, though it was 00:30 of 1 February in Mexico City.
 * So the Fecha's wall time is read on Mexico City's clock; LugarExpedicion's zone matters for issuing
 * (the Fecha we write, SAT's rule CFDI40101), not for which month a CFDI is in.
 */
export function booksInstant(c: Pick<CfdiData, 'fecha'>): Date {
  return instantOfCfdiFecha(c.fecha, MEXICO_CITY_CP);
}

/** Any postal code of Ciudad de México: its zone is the books' calendar. */
const MEXICO_CITY_CP = '06000';

export interface BookAmount {
  /** MXN, two decimals, signed: what the ticket counts. */
  amount: string;
  currency: string;
  /** The Total in its own currency (same sign as amount); null in pesos. */
  originalAmount: string | null;
}

/** The currency a CFDI is written in, as tickets keep it: XXX (no currency: pagos, traslados) is pesos. */
export function currencyOf(c: Pick<CfdiData, 'moneda'>): string {
  const m = c.moneda.trim().toUpperCase();
  if (!m || m === 'XXX') return 'MXN';
  return m.slice(0, 16);
}

/** What the CFDI counts in the books; null when a figure does not fit a ticket (random values, hostile files). */
export function bookAmount(c: CfdiData): BookAmount | null {
  const counts = c.tipoDeComprobante === 'I' || c.tipoDeComprobante === 'E' || c.tipoDeComprobante === 'N';
  const currency = currencyOf(c);
  const sign = c.tipoDeComprobante === 'E' ? -1n : 1n;
  const mxn = counts ? toCents(c.amountMxn) : 0n;
  if (mxn === null || mxn >= LIMIT_CENTS || mxn <= -LIMIT_CENTS) return null;
  let originalAmount: string | null = null;
  if (currency !== 'MXN' && counts) {
    const original = toCents(c.total);
    if (original === null || original >= LIMIT_CENTS || original <= -LIMIT_CENTS) return null;
    originalAmount = formatCents(sign * original);
  }
  return { amount: formatCents(sign * mxn), currency, originalAmount };
}

const money = (v: string): string | null => {
  const c = toCents(v);
  return c === null || c >= PAYMENT_LIMIT_CENTS || c <= -PAYMENT_LIMIT_CENTS ? null : formatCents(c);
};
const installment = (v: string): number | null => (/^\d{1,6}$/.test(v) ? Number(v) : null);

/** One DoctoRelacionado of a payment CFDI, checked: figures that are not amounts are left out. */
interface PaidDocument {
  uuid: string;
  seq: number;
  installment: number | null;
  currency: string;
  saldoAnt: string | null;
  paid: string;
  saldoInsoluto: string | null;
  paidAt: string;
}

/** The documents a payment CFDI pays (Pagos 1.0 and 2.0), in order; seq numbers every DoctoRelacionado. */
export function paidDocuments(c: CfdiData): PaidDocument[] {
  const out: PaidDocument[] = [];
  if (c.tipoDeComprobante !== 'P' || !c.pagos) return out;
  let seq = 0;
  for (const p of c.pagos.pagos) {
    for (const d of p.documentos) {
      seq++;
      const uuid = d.idDocumento.trim().toUpperCase();
      // Pagos 1.0 may leave ImpPagado out when the payment pays one document: then it is the Monto.
      const paid = money(d.impPagado || (p.documentos.length === 1 ? p.monto : ''));
      if (!UUID.test(uuid) || paid === null) continue;
      out.push({
        uuid,
        seq,
        installment: installment(d.numParcialidad),
        currency: (d.monedaDR || p.monedaP || 'MXN').toUpperCase().slice(0, 16),
        saldoAnt: d.impSaldoAnt ? money(d.impSaldoAnt) : null,
        paid,
        saldoInsoluto: d.impSaldoInsoluto ? money(d.impSaldoInsoluto) : null,
        paidAt: p.fechaPago.slice(0, 32),
      });
    }
  }
  return out;
}

/** What the receipt row shows beyond its facts (receipts.details): related UUIDs, payroll, what a payment pays. */
export function detailsOf(c: CfdiData): ReceiptDetails {
  const details: ReceiptDetails = {};
  const related = c.relacionados
    .map((r) => ({ type: r.tipoRelacion.slice(0, 8), uuids: [...new Set(r.uuids.filter((u) => UUID.test(u)))].slice(0, MAX_RELATED) }))
    .filter((r) => r.uuids.length > 0)
    .slice(0, MAX_RELATED);
  if (related.length > 0) details.related = related;
  if (c.tipoDeComprobante === 'N' && c.nomina) {
    details.payroll = { from: c.nomina.fechaInicialPago, to: c.nomina.fechaFinalPago, paid_on: c.nomina.fechaPago, net: money(c.total) ?? '0.00' };
  }
  if (c.tipoDeComprobante === 'P') {
    const pays = paidDocuments(c).slice(0, MAX_RELATED);
    if (pays.length > 0) details.pays = pays.map((d) => ({ uuid: d.uuid, amount: d.paid, currency: d.currency, balance: d.saldoInsoluto, installment: d.installment }));
  }
  return details;
}

/** The cfdi_payments rows of a payment CFDI's receipt in one account. */
export function paymentRowsOf(c: CfdiData, clientId: number, receiptId: string): (typeof cfdiPayments.$inferInsert)[] {
  return paidDocuments(c).map((d) => ({
    clientId,
    receiptId,
    documentUuid: d.uuid,
    seq: d.seq,
    numParcialidad: d.installment,
    currency: d.currency,
    impSaldoAnt: d.saldoAnt,
    impPagado: d.paid,
    impSaldoInsoluto: d.saldoInsoluto,
    paidAt: d.paidAt,
  }));
}

export interface TicketOfCfdi {
  id: string;
  userId: number;
  side: BookSide;
  receiptId: string;
  receivedAt: Date;
  book: BookAmount;
  metaTagId: number | null;
  incomeMetaTagId: number | null;
  now: Date;
}

/** The tickets row of one side of a CFDI (status 'facturado', origin 'cfdi'). */
export function ticketRowOf(c: CfdiData, t: TicketOfCfdi): typeof tickets.$inferInsert {
  const expense = t.side.type === TICKET_TYPE.expense;
  return {
    id: t.id,
    userId: t.userId,
    clientId: t.side.clientId,
    type: t.side.type,
    statusId: FACTURADO,
    companyId: CFDI_COMPANY_ID,
    ticketNumber: `${c.serie}${c.folio}`,
    amount: t.book.amount,
    currency: t.book.currency,
    originalAmount: t.book.originalAmount,
    receivedAt: t.receivedAt,
    metaTagId: expense ? t.metaTagId : null,
    incomeMetaTagId: expense ? null : t.incomeMetaTagId,
    receiptId: t.receiptId,
    createdAt: t.now,
    updatedAt: t.now,
  };
}
