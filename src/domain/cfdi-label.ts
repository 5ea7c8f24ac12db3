// What a CFDI means, in words (DESIGN §5): the one short badge of a row in the month and year lists, and
// the facts of the CFDI view — credit notes, payment complements, payroll, traslados, PPD payment state,
// seal checks, SAT rule findings, cancellation and replacement. One home for the wording so every place
// that shows a ticket says the same thing. Pure. The receipt comes from the server and from rows cached by
// older versions: every field is optional and read defensively (a value of the wrong shape is ignored,
// never shown raw).
import { formatCents, toCents } from './decimal';
import { formatMoney, formatTwoDecimals } from './money';
import type { CfdiFinding, CfdiTipo, Receipt, Ticket } from './ticket';

export const CFDI_TXT = {
  invoice: 'Factura',
  creditNote: 'Nota de crédito',
  payment: 'Complemento de pago',
  payroll: 'Nómina',
  transfer: 'Traslado',
  paid: 'Pagada',
  partlyPaidShort: 'Pago parcial',
  partlyPaidNote: (balance: string) => `(${balance} por pagar)`,
  unpaid: 'Pendiente de pago',
  cancelled: 'Cancelada',
  cancelling: 'Cancelación en proceso',
  // The spec's text, verbatim.
  sealInvalid: 'Sello inválido: el archivo fue alterado o no es auténtico',
  sealMissing: 'Sin sello: el archivo no está firmado por quien lo emitió, así que no vale como comprobante',
  sealUnverified: 'Sello del emisor sin verificar',
  satSealInvalid: 'Sello del SAT inválido: el timbre fue alterado o no es auténtico',
  satSealUnverified: 'Sello del SAT sin verificar',
  sealsOk: 'Sellos del emisor y del SAT válidos',
  sealOkSatUnverified: 'Sello del emisor válido',
  findingsTitle: (n: number) => (n === 1 ? 'Este CFDI tiene una observación' : `Este CFDI tiene ${n} observaciones`),
  findingsShort: (n: number) => (n === 1 ? '1 observación' : `${n} observaciones`),
  paidTotal: (total: string) => `Monto pagado: ${total}`,
  payrollPeriod: (from: string, to: string) => `Del ${from} al ${to}`,
  net: 'Neto',
  noAmount: 'Sin monto',
  thisCfdi: 'Este CFDI',
  replaces: 'Sustituye a',
  replacedBy: 'Sustituido por',
  stateVigente: 'vigente',
  stateInProcess: 'en proceso',
  stateCancelled: 'cancelada',
} as const;

/** SAT's c_TipoRelacion: why a CFDI names others. */
export const RELATION_LABELS: Readonly<Record<string, string>> = {
  '01': 'Nota de crédito de los documentos relacionados',
  '02': 'Nota de débito de los documentos relacionados',
  '03': 'Devolución de mercancía sobre facturas o traslados previos',
  '04': 'Sustitución de los CFDI previos',
  '05': 'Traslados de mercancías facturados previamente',
  '06': 'Factura generada por los traslados previos',
  '07': 'CFDI por aplicación de anticipo',
};

const TIPOS: readonly string[] = ['I', 'E', 'P', 'N', 'T'];
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_RE = /^\d{4}-\d{2}-\d{2}/;
const CURRENCY_RE = /^[A-Z]{3}$/;
const RELATION_RE = /^\d{2}$/;
/** More than this many list items from one CFDI is not a real CFDI's worth: the rest is not shown. */
const MAX_ITEMS = 200;
const MAX_TEXT = 500;

type AnyReceipt = Receipt | null | undefined;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max = MAX_TEXT): string => (typeof v === 'string' ? v.slice(0, max) : '');
const uuidOf = (v: unknown): string | null => (typeof v === 'string' && UUID_RE.test(v) ? v.toUpperCase() : null);
const dateOf = (v: unknown): string | null => (typeof v === 'string' && DATE_RE.test(v) ? v.slice(0, 10) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v.slice(0, MAX_ITEMS) : []);

/** A decimal string as it arrived, or null (numbers in JSON are accepted when finite). */
function decimal(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  return toCents(v) === null ? null : v.trim();
}

/** The CFDI type of a ticket's receipt; null without a receipt, 'I' when the receipt does not say. */
export function cfdiTipo(r: AnyReceipt): CfdiTipo | null {
  if (!r) return null;
  return typeof r.tipo === 'string' && TIPOS.includes(r.tipo) ? r.tipo : 'I';
}

/** '12.50 USD', '-1,234.00 EUR': a foreign-currency amount, with its code and without the peso sign. */
export function formatCurrencyAmount(amount: string, currency: string): string {
  if (currency === 'MXN') return formatMoney(amount);
  const cents = toCents(amount) ?? 0n;
  const abs = formatTwoDecimals(Number(formatCents(cents < 0n ? -cents : cents)));
  return `${cents < 0n ? '-' : ''}${abs} ${currency}`;
}

/** The currency a ticket's CFDI is written in: its `currency` when it is a 3-letter code, else MXN. */
export function ticketCurrency(t: Pick<Ticket, 'currency'>): string {
  return typeof t.currency === 'string' && CURRENCY_RE.test(t.currency) ? t.currency : 'MXN';
}

/** '12.50 USD' beside the pesos of a ticket in another currency; null for pesos or without the original amount. */
export function foreignAmount(t: Pick<Ticket, 'currency' | 'original_amount'>): string | null {
  const currency = ticketCurrency(t);
  const original = decimal(t.original_amount);
  return currency === 'MXN' || original === null ? null : formatCurrencyAmount(original, currency);
}

/**
 * The row's amount with its sign: spending as '$120.50', income as '+$120.50', and anything negative (a
 * credit note lowers spending or income) as '-$1,234.00' — never '+-'.
 */
export function signedAmount(amount: string, income: boolean): string {
  const cents = toCents(amount) ?? 0n;
  const shown = formatMoney(formatCents(cents));
  return income && cents > 0n ? `+${shown}` : shown;
}

/** The state of a CFDI of ours at SAT as the view names it. */
export function cfdiState(cancel: unknown, satStatus?: unknown): string {
  if (cancel === 'cancelada' || satStatus === 'Cancelado') return CFDI_TXT.stateCancelled;
  if (cancel === 'en_proceso') return CFDI_TXT.stateInProcess;
  return CFDI_TXT.stateVigente; // none asked, or the receiver refused it: still vigente
}

/** The SAT rules a CFDI breaks (code and Spanish explanation), each with both parts. */
export function cfdiFindings(r: AnyReceipt): CfdiFinding[] {
  return list(r?.findings)
    .filter(isObj)
    .map((f) => ({ code: text(f.code, 20), message: text(f.message) }))
    .filter((f) => f.code !== '' || f.message !== '');
}

/** Payment CFDI: each invoice it pays, as the view lists it. */
export interface PaidDocument {
  uuid: string;
  amount: string;
  balance: string | null;
  installment: number | null;
}

function paysOf(r: AnyReceipt): PaidDocument[] {
  const details = isObj(r?.details) ? r.details : {};
  const out: PaidDocument[] = [];
  for (const p of list(details.pays)) {
    if (!isObj(p)) continue;
    const uuid = uuidOf(p.uuid);
    const amount = decimal(p.amount);
    if (!uuid || amount === null) continue;
    const currency = typeof p.currency === 'string' && CURRENCY_RE.test(p.currency) ? p.currency : 'MXN';
    const balance = decimal(p.balance);
    const installment = typeof p.installment === 'number' && Number.isInteger(p.installment) && p.installment > 0 ? p.installment : null;
    out.push({
      uuid,
      amount: formatCurrencyAmount(amount, currency),
      balance: balance === null ? null : formatCurrencyAmount(balance, currency),
      installment,
    });
  }
  return out;
}

/** What a payment CFDI paid in all, per currency ('$19,228.88', or '$100.00 + 12.50 USD'). */
function paidTotal(r: AnyReceipt): string | null {
  const details = isObj(r?.details) ? r.details : {};
  const sums = new Map<string, bigint>();
  for (const p of list(details.pays)) {
    if (!isObj(p) || !uuidOf(p.uuid)) continue;
    const amount = decimal(p.amount);
    if (amount === null) continue;
    const currency = typeof p.currency === 'string' && CURRENCY_RE.test(p.currency) ? p.currency : 'MXN';
    sums.set(currency, (sums.get(currency) ?? 0n) + (toCents(amount) ?? 0n));
  }
  if (sums.size === 0) return null;
  return [...sums].map(([currency, cents]) => formatCurrencyAmount(formatCents(cents), currency)).join(' + ');
}

function relatedOf(r: AnyReceipt): { type: string; label: string; uuids: string[] }[] {
  const details = isObj(r?.details) ? r.details : {};
  return list(details.related)
    .filter(isObj)
    .map((g) => {
      const type = typeof g.type === 'string' && RELATION_RE.test(g.type) ? g.type : '';
      const uuids = list(g.uuids).map(uuidOf).filter((u): u is string => u !== null);
      return { type, label: RELATION_LABELS[type] ?? 'CFDI relacionados', uuids };
    })
    .filter((g) => g.uuids.length > 0);
}

function payrollOf(r: AnyReceipt): { from: string; to: string; paidOn: string | null; net: string | null } | null {
  const details = isObj(r?.details) ? r.details : {};
  const p = details.payroll;
  if (!isObj(p)) return null;
  const from = dateOf(p.from);
  const to = dateOf(p.to);
  if (!from || !to) return null;
  const net = decimal(p.net);
  return { from, to, paidOn: dateOf(p.paid_on), net: net === null ? null : formatMoney(net) };
}

/** A row's badge: `text` in the badge, `note` right after it in plain text (the two read as one label). */
export interface CfdiBadge {
  text: string;
  tone: BadgeTone;
  note?: string;
}

/** The badge's whole label: 'Pago parcial ($1,200.00 por pagar)'. */
export function badgeLabel(b: CfdiBadge): string {
  return b.note ? `${b.text} ${b.note}` : b.text;
}

/** The state of a PPD invoice's payments as words, the balance in the invoice's currency. */
function paymentLabel(r: AnyReceipt, currency: string): CfdiBadge | null {
  const p = r?.payment;
  if (!isObj(p)) return null;
  switch (p.status) {
    case 'pagada':
      return { text: CFDI_TXT.paid, tone: 'success' };
    case 'parcial': {
      const balance = decimal(p.balance);
      if (balance === null) return null;
      const shown = formatCurrencyAmount(balance, currency);
      return { text: CFDI_TXT.partlyPaidShort, note: CFDI_TXT.partlyPaidNote(shown), tone: 'warning' };
    }
    case 'pendiente':
      return { text: CFDI_TXT.unpaid, tone: 'warning' };
    default:
      return null;
  }
}

/** The seal problem a row shows in full (the spec's text for a broken seal); null when there is none. */
function sealAlarm(r: AnyReceipt): string | null {
  if (!r) return null;
  if (r.seal === 'invalido' || r.seal_sat === 'invalido') return CFDI_TXT.sealInvalid;
  if (r.seal === 'sin_sello') return CFDI_TXT.sealMissing;
  return null;
}

const KIND_LABELS: Record<CfdiTipo, string> = {
  I: CFDI_TXT.invoice,
  E: CFDI_TXT.creditNote,
  P: CFDI_TXT.payment,
  N: CFDI_TXT.payroll,
  T: CFDI_TXT.transfer,
};

export type BadgeTone = 'info' | 'success' | 'warning' | 'danger' | 'neutral';

/** What a row of the month or year list shows about its CFDI: kept short so a 360 px card stays scannable. */
export interface CfdiRowInfo {
  tipo: CfdiTipo | null;
  /** The one badge: cancelled, else the type when it is not an ordinary invoice, else a PPD invoice's payment state. */
  badge: CfdiBadge | null;
  /** A broken or missing seal, in full. */
  alarm: string | null;
  /** How many SAT rules it breaks (a small marker; the list is in the CFDI view). */
  findings: number;
  /** A second short line: what a payment CFDI paid, a payroll's period and net pay. */
  detail: string | null;
  /** A payment CFDI or a traslado counts no money: the amount cell says so instead of '$0.00'. */
  noAmount: boolean;
  /** '12.50 USD' beside the pesos. */
  foreign: string | null;
  /** Cancelled (by us or in SAT): it has left every total, the row's amount is struck through. */
  cancelled: boolean;
}

type RowTicket = Pick<Ticket, 'receipt' | 'currency' | 'original_amount'>;

export function cfdiRowInfo(t: RowTicket): CfdiRowInfo {
  const r = t.receipt;
  const tipo = cfdiTipo(r);
  const findings = cfdiFindings(r).length;
  const info: CfdiRowInfo = {
    tipo, badge: null, alarm: sealAlarm(r), findings, detail: null, noAmount: false, foreign: foreignAmount(t),
    cancelled: r?.cancel_status === 'cancelada' || r?.sat_status === 'Cancelado',
  };
  if (!r || !tipo) return info;
  // SAT's own 'Cancelado' already has its badge on the row ('Cancelada en el SAT'): one badge, not two.
  const satCancelled = r.sat_status === 'Cancelado';
  if (r.cancel_status === 'cancelada') info.badge = satCancelled ? null : { text: CFDI_TXT.cancelled, tone: 'danger' };
  else if (r.cancel_status === 'en_proceso') info.badge = { text: CFDI_TXT.cancelling, tone: 'warning' };
  else if (satCancelled) info.badge = null;
  else if (tipo === 'I') info.badge = paymentLabel(r, ticketCurrency(t));
  else info.badge = { text: KIND_LABELS[tipo], tone: tipo === 'T' ? 'neutral' : 'info' };

  if (tipo === 'P') {
    const total = paidTotal(r);
    info.detail = total ? CFDI_TXT.paidTotal(total) : null;
  } else if (tipo === 'N') {
    const p = payrollOf(r);
    if (p) info.detail = `${CFDI_TXT.payrollPeriod(p.from, p.to)}${p.net ? ` · ${CFDI_TXT.net.toLowerCase()} ${p.net}` : ''}`;
  }
  info.noAmount = tipo === 'P' || tipo === 'T';
  return info;
}

/** One line of the CFDI view: a label and its value. */
export interface CfdiFact {
  label: string;
  value: string;
}

export interface CfdiSealLine {
  text: string;
  tone: BadgeTone;
}

/** Everything the CFDI view shows, in words. */
export interface CfdiView {
  /** 'Factura', 'Nota de crédito', 'Complemento de pago', 'Nómina', 'Traslado'. */
  title: string;
  /** Broken or missing seals (danger), first on the view. */
  alarm: string | null;
  /** How each seal checked: the emisor's and SAT's. 'Sello del SAT sin verificar' is a plain note, not an alarm. */
  seals: CfdiSealLine[];
  findingsTitle: string | null;
  findings: CfdiFinding[];
  facts: CfdiFact[];
  /** This CFDI and the ones it replaced, each with its state (vigente / en proceso / cancelada). */
  uuids: { label: string; uuid: string; state: string }[];
  /** A credit note's (or any CFDI's) related documents, by relation. */
  related: { label: string; uuids: string[] }[];
  /** A payment CFDI: each invoice it pays. */
  pays: PaidDocument[];
}

function sealLines(r: Receipt): CfdiSealLine[] {
  const lines: CfdiSealLine[] = [];
  if (r.seal === 'invalido') lines.push({ text: 'Sello del emisor inválido', tone: 'danger' });
  else if (r.seal === 'sin_sello') lines.push({ text: 'Sin sello del emisor', tone: 'danger' });
  else if (r.seal === 'sin_verificar') lines.push({ text: CFDI_TXT.sealUnverified, tone: 'neutral' });
  if (r.seal_sat === 'invalido') lines.push({ text: CFDI_TXT.satSealInvalid, tone: 'danger' });
  else if (r.seal_sat === 'sin_verificar' || r.seal_sat === 'sin_sello') lines.push({ text: CFDI_TXT.satSealUnverified, tone: 'neutral' });
  if (r.seal === 'valido' && r.seal_sat === 'valido') lines.push({ text: CFDI_TXT.sealsOk, tone: 'success' });
  else if (r.seal === 'valido') lines.unshift({ text: CFDI_TXT.sealOkSatUnverified, tone: 'success' });
  return lines;
}

type ViewTicket = Pick<Ticket, 'receipt' | 'currency' | 'original_amount' | 'amount' | 'ticket_type_id'> & { income: boolean };

/** The CFDI view of a ticket; null when the ticket has no CFDI. */
export function cfdiView(t: ViewTicket): CfdiView | null {
  const r = t.receipt;
  const tipo = cfdiTipo(r);
  if (!r || !tipo) return null;
  const currency = ticketCurrency(t);
  const row = cfdiRowInfo(t);
  const facts: CfdiFact[] = [];
  const issuer = [text(r.name_issuer), text(r.rfc_issuer, 20)].filter(Boolean).join(' · ');
  if (issuer) facts.push({ label: 'Emisor', value: issuer });
  if (text(r.rfc_receiver, 20)) facts.push({ label: 'Receptor', value: text(r.rfc_receiver, 20) });
  const emitted = dateOf(r.emission_date);
  if (emitted) facts.push({ label: 'Fecha de emisión', value: emitted });
  const total = decimal(r.total);
  if (total !== null && tipo !== 'P') facts.push({ label: 'Total del CFDI', value: formatCurrencyAmount(total, currency) });
  if (row.noAmount) facts.push({ label: 'En tus cuentas', value: `${CFDI_TXT.noAmount} (no se suma a tus gastos ni ingresos)` });
  else facts.push({ label: 'En tus cuentas', value: signedAmount(t.amount, t.income) });
  if (row.foreign) facts.push({ label: 'Moneda original', value: row.foreign });
  if (tipo === 'P' && row.detail) facts.push({ label: 'Monto pagado', value: paidTotal(r) ?? '' });
  const method = text(r.metodo_pago, 3);
  if (method === 'PUE' || method === 'PPD') facts.push({ label: 'Método de pago', value: method === 'PPD' ? 'PPD · en parcialidades o diferido' : 'PUE · en una sola exhibición' });
  const payment = tipo === 'I' ? paymentLabel(r, currency) : null;
  if (payment) facts.push({ label: 'Estado del pago', value: badgeLabel(payment) });
  const payroll = tipo === 'N' ? payrollOf(r) : null;
  if (payroll) {
    facts.push({ label: 'Periodo de pago', value: CFDI_TXT.payrollPeriod(payroll.from, payroll.to) });
    if (payroll.paidOn) facts.push({ label: 'Fecha de pago', value: payroll.paidOn });
    if (payroll.net) facts.push({ label: 'Pago neto', value: payroll.net });
  }

  const uuids: CfdiView['uuids'] = [];
  const own = uuidOf(r.uuid);
  if (own) uuids.push({ label: CFDI_TXT.thisCfdi, uuid: own, state: cfdiState(r.cancel_status, r.sat_status) });
  const successor = uuidOf(r.replaced_by);
  if (successor) uuids.push({ label: CFDI_TXT.replacedBy, uuid: successor, state: CFDI_TXT.stateVigente });
  for (const old of list(r.replaces)) {
    if (!isObj(old)) continue;
    const uuid = uuidOf(old.uuid);
    if (uuid) uuids.push({ label: CFDI_TXT.replaces, uuid, state: cfdiState(old.cancel_status) });
  }

  const findings = cfdiFindings(r);
  return {
    title: KIND_LABELS[tipo],
    alarm: row.alarm,
    seals: sealLines(r),
    findingsTitle: findings.length > 0 ? CFDI_TXT.findingsTitle(findings.length) : null,
    findings,
    facts,
    uuids,
    related: relatedOf(r).map(({ label, uuids: u }) => ({ label, uuids: u })),
    pays: tipo === 'P' ? paysOf(r) : [],
  };
}
