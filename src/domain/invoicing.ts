// Invoice requests (spec §3 Anonymous invoice request, §4 merchant/anonymous/multi flows, §5 'SAT and
// anonymous form', §8): the receiver's tax data rules, SAT's regime and Uso CFDI catalogs, and the request's path.
// Client and server both check with these functions; the server re-checks everything. The regime and
// Uso rules are SAT's own catalogs (./sat-catalogs.ts, the same data the CFDI rule engine checks), so
// what the forms accept is what a PAC accepts: 605 + D01 (a salaried person's medical bill) is fine,
// 601 for a persona física or 612 for a persona moral is not.
import { isCountryCode, MEXICO } from './countries';
import { isValidEmail } from './email';
import { MSG } from './messages';
import { normalizeRfc, RFC_FOREIGN, RFC_GENERIC, isValidRfc } from './rfc';
import { SAT_REGIMENES, SAT_USOS_CFDI, type SatRegimen, type SatUsoCfdi } from './sat-catalogs';

/** c_RegimenFiscal (CFDI 4.0): SAT's catalog, with the person types each regime is for. */
export const TAX_REGIMES: readonly SatRegimen[] = SAT_REGIMENES;

/** c_UsoCFDI with the person types and the RegimenFiscalReceptor values SAT accepts with each. */
export const USOS_CFDI: readonly SatUsoCfdi[] = SAT_USOS_CFDI;

/** The spec's list (§5): regimes that may use a Uso other than S01. Where SAT refuses a pair for a regime outside it, the spec's S01 message says why. */
const REGIMES_BEYOND_S01: ReadonlySet<string> = new Set(['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626']);

export function regimeName(code: string): string | undefined {
  return TAX_REGIMES.find((r) => r.code === code)?.name;
}

/** Regimes offered for an RFC: personas morales (12) and físicas (13) each see theirs; the foreign RFC 616 only. */
export function regimesFor(rfc: string): typeof TAX_REGIMES {
  const n = normalizeRfc(rfc);
  if (n === RFC_FOREIGN || n === RFC_GENERIC) return TAX_REGIMES.filter((r) => r.code === '616');
  return TAX_REGIMES.filter((r) => (n.length === 12 ? r.moral : r.fisica));
}

/** SAT's c_RegimenFiscal (CFDI40141/40158/40159): the regime is one of those for the RFC's person type. */
export function regimeFitsRfc(regime: string, rfc: string): boolean {
  return regimesFor(rfc).some((r) => r.code === regime);
}

/**
 * SAT's c_UsoCFDI (CFDI40161): the Uso is for the RFC's person type (12 moral, 13 física) and accepts
 * the regime; the generic RFCs take S01 (or CP01 on a payment). Without an RFC only the regime counts.
 */
export function usoFitsReceiver(regime: string, uso: string, rfc?: string): boolean {
  const u = USOS_CFDI.find((x) => x.code === uso);
  if (!u || !u.regimes.includes(regime)) return false;
  if (rfc === undefined) return true;
  const n = normalizeRfc(rfc);
  if (n === RFC_FOREIGN || n === RFC_GENERIC) return uso === 'S01' || uso === 'CP01';
  return n.length === 12 ? u.moral : u.fisica;
}

/** SAT's c_UsoCFDI 'Régimen Fiscal Receptor' column alone: the PAC refuses any other pair. */
export function satAllowsUso(regime: string, uso: string): boolean {
  return usoFitsReceiver(regime, uso);
}

/**
 * The message when SAT refuses this Uso for the receiver, else null. SAT's catalog decides (so 605 +
 * D01 passes, which the spec's older list refused); the message is the spec's S01 one for a regime
 * outside the spec's list (605 + G03, 616 + G03), its general refusal otherwise (601 + D01).
 */
export function checkRegimeForUso(regime: string, uso: string, rfc?: string): string | null {
  if (usoFitsReceiver(regime, uso, rfc)) return null;
  return REGIMES_BEYOND_S01.has(regime) ? MSG.invoiceRejected : MSG.regimeOnlyS01;
}

/** c_Pais 'Formato de Registro de Identidad Tributaria' where SAT publishes one; other countries take 1–40 characters. */
export const NUM_REG_ID_TRIB_FORMAT: Readonly<Record<string, RegExp>> = { USA: /^[0-9]{9}$/, CAN: /^[0-9]{9}$/ };
const ANY_NUM_REG_ID_TRIB = /^[^|]{1,40}$/;

/** SAT's rule for a foreign receiver's NumRegIdTrib (CFDI40156): the format of its ResidenciaFiscal's country. */
export function numRegIdTribFits(country: string, numRegIdTrib: string): boolean {
  const format = Object.hasOwn(NUM_REG_ID_TRIB_FORMAT, country) ? NUM_REG_ID_TRIB_FORMAT[country]! : ANY_NUM_REG_ID_TRIB;
  return format.test(numRegIdTrib);
}

/** A foreign receiver's country and tax id (CFDI40150/40152/40156): a c_Pais code other than MEX, and its id's format. */
export function checkForeignReceiver(country: string, numRegIdTrib: string): { field: 'residenciaFiscal' | 'numRegIdTrib'; message: string } | null {
  if (!isCountryCode(country) || country === MEXICO) return { field: 'residenciaFiscal', message: MSG.countryInvalid };
  if (!numRegIdTrib.trim()) return { field: 'numRegIdTrib', message: MSG.numRegIdTribRequired };
  if (!numRegIdTribFits(country, numRegIdTrib)) return { field: 'numRegIdTrib', message: MSG.numRegIdTribFormat };
  return null;
}

/** CFDI 4.0 DomicilioFiscalReceptor: a Mexican postal code, five digits. */
export function isValidPostalCode(raw: string): boolean {
  return /^[0-9]{5}$/.test(raw.trim());
}

/** c_FormaPago values a merchant ticket may carry. */
export const FORMAS_PAGO: Record<string, string> = {
  '01': 'Efectivo',
  '02': 'Cheque nominativo',
  '03': 'Transferencia electrónica de fondos',
  '04': 'Tarjeta de crédito',
  '28': 'Tarjeta de débito',
  '99': 'Por definir',
};

/** Spec §3 Anonymous invoice request (plus CFDI 4.0's receiver postal code). */
export interface AnonymousInvoiceRequest {
  client: 0 | number;
  email: string;
  rfc: string;
  uso_cfdi: string;
  forma_pago?: string;
  nombre: string;
  residencia_fiscal?: string;
  num_reg_id_trib?: string;
  regimen_fiscal_receptor: string;
  codigo_postal: string;
  refactura?: 1;
}

export interface ReceiverForm {
  rfc: string;
  rfcConfirm: string;
  foreign: boolean;
  nombre: string;
  email: string;
  regime: string;
  uso: string;
  postalCode: string;
  residenciaFiscal?: string;
  numRegIdTrib?: string;
}

/** Which field a receiver problem belongs to, for focus. */
export type ReceiverField = 'rfc' | 'rfcConfirm' | 'nombre' | 'email' | 'regime' | 'uso' | 'postalCode' | 'residenciaFiscal' | 'numRegIdTrib';

/**
 * The anonymous form's receiver checks in the spec's order (§5): RFC = confirmation, RFC pattern, e-mail,
 * regime vs Uso; then ours: name, postal code, foreign data. Values are expected already normalised
 * (see normalizeReceiver).
 */
export function checkReceiver(f: ReceiverForm): { field: ReceiverField; message: string } | null {
  if (f.rfc !== f.rfcConfirm) return { field: 'rfcConfirm', message: MSG.rfcConfirmMismatch };
  if (!(isValidRfc(f.rfc) || f.rfc === RFC_FOREIGN)) return { field: 'rfc', message: MSG.rfcPatternInvalid };
  if (f.rfc === RFC_GENERIC) return { field: 'rfc', message: MSG.rfcPatternInvalid };
  if (!isValidEmail(f.email)) return { field: 'email', message: MSG.receiverEmailInvalid };
  if (!TAX_REGIMES.some((r) => r.code === f.regime)) return { field: 'regime', message: MSG.regimeRequired };
  if (!regimeFitsRfc(f.regime, f.rfc)) return { field: 'regime', message: MSG.regimeInvalid };
  if (!USOS_CFDI.some((u) => u.code === f.uso)) return { field: 'uso', message: MSG.usoRequired };
  const rule = checkRegimeForUso(f.regime, f.uso, f.rfc);
  if (rule) return { field: 'uso', message: rule };
  if (!f.nombre.trim()) return { field: 'nombre', message: MSG.receiverNameRequired };
  if (!isValidPostalCode(f.postalCode)) return { field: 'postalCode', message: MSG.postalCodeInvalid };
  if (f.rfc === RFC_FOREIGN) return checkForeignReceiver(f.residenciaFiscal ?? '', f.numRegIdTrib ?? '');
  return null;
}

/** Spec §5: e-mail lowercased, RFC uppercased; the foreign box locks the RFC to the generic foreign RFC. */
export function normalizeReceiver(f: ReceiverForm): ReceiverForm {
  const rfc = f.foreign ? RFC_FOREIGN : normalizeRfc(f.rfc);
  const rfcConfirm = f.foreign ? RFC_FOREIGN : normalizeRfc(f.rfcConfirm);
  return {
    ...f,
    rfc,
    rfcConfirm,
    nombre: f.nombre.trim().toUpperCase().replace(/\s+/g, ' '),
    email: f.email.trim().toLowerCase(),
    regime: f.regime.trim().slice(0, 3),
    uso: f.uso.trim().toUpperCase(),
    postalCode: f.postalCode.trim(),
    residenciaFiscal: f.residenciaFiscal?.trim().toUpperCase(),
    numRegIdTrib: f.numRegIdTrib?.trim().toUpperCase(),
  };
}

/** Where an invoice request is ('Where is my invoice?'). 'sustituida' = replaced by a refacturación. */
export type InvoiceRequestStatus = 'solicitada' | 'timbrada' | 'enviada' | 'error' | 'sustituida';

/** The path shown on the ticket, step by step. */
export const INVOICE_PATH: readonly InvoiceRequestStatus[] = ['solicitada', 'timbrada', 'enviada'];

export function invoiceStepLabel(status: InvoiceRequestStatus, email: string): string {
  switch (status) {
    case 'solicitada': return 'Solicitada';
    case 'timbrada': return 'Timbrada';
    case 'enviada': return `Enviada a ${email}`;
    case 'error': return 'Error';
    case 'sustituida': return 'Sustituida por una refacturación';
  }
}

/** GET /api/v33/tickets/verify's answer: the merchant ticket found, and its current invoice if any. */
export interface VerifiedTicket {
  ref: string;
  ticket_number: string;
  venue: string;
  issued_at: string;
  subtotal: string;
  tax: string;
  total: string;
  forma_pago: string;
  /** Stamped (timbrada or enviada). */
  invoiced: boolean;
  invoice: { request_id: string; status: InvoiceRequestStatus; email_masked: string; uuid: string | null } | null;
}

/** What a ticket JSON carries about its invoice request (ours, added to DESIGN §3's ticket). */
export interface TicketInvoice {
  request_id: string;
  status: InvoiceRequestStatus;
  email: string;
  /** Spanish, for the user, when status is 'error'. */
  error: string | null;
  updated_at: string;
}
