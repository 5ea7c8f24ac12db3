// Invoice requests (spec §3 Anonymous invoice request, §4 merchant/anonymous/multi flows, §5 'SAT and
// anonymous form', §8): the receiver's tax data rules, SAT's regime and Uso CFDI catalogs, and the request's path.
// Client and server both check with these functions; the server re-checks everything.
import { isValidEmail } from './email';
import { MSG } from './messages';
import { normalizeRfc, RFC_FOREIGN, RFC_GENERIC, isValidRfc } from './rfc';

/** c_RegimenFiscal (CFDI 4.0, SAT catalog of fixtures/catalogs/regimen-fiscal.json). */
export const TAX_REGIMES: readonly { code: string; name: string; fisica: boolean; moral: boolean }[] = [
  { code: '601', name: 'General de Ley Personas Morales', fisica: false, moral: true },
  { code: '603', name: 'Personas Morales con Fines no Lucrativos', fisica: false, moral: true },
  { code: '605', name: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', fisica: true, moral: false },
  { code: '606', name: 'Arrendamiento', fisica: true, moral: false },
  { code: '607', name: 'Régimen de Enajenación o Adquisición de Bienes', fisica: true, moral: false },
  { code: '608', name: 'Demás ingresos', fisica: true, moral: false },
  { code: '610', name: 'Residentes en el Extranjero sin Establecimiento Permanente en México', fisica: true, moral: true },
  { code: '611', name: 'Ingresos por Dividendos (socios y accionistas)', fisica: true, moral: false },
  { code: '612', name: 'Personas Físicas con Actividades Empresariales y Profesionales', fisica: true, moral: false },
  { code: '614', name: 'Ingresos por intereses', fisica: true, moral: false },
  { code: '615', name: 'Régimen de los ingresos por obtención de premios', fisica: true, moral: false },
  { code: '616', name: 'Sin obligaciones fiscales', fisica: true, moral: false },
  { code: '620', name: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos', fisica: false, moral: true },
  { code: '621', name: 'Incorporación Fiscal', fisica: true, moral: false },
  { code: '622', name: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras', fisica: false, moral: true },
  { code: '623', name: 'Opcional para Grupos de Sociedades', fisica: false, moral: true },
  { code: '624', name: 'Coordinados', fisica: false, moral: true },
  { code: '625', name: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas', fisica: true, moral: false },
  { code: '626', name: 'Régimen Simplificado de Confianza', fisica: true, moral: true },
];

/** c_UsoCFDI with the RegimenFiscalReceptor values SAT accepts with each (fixtures/catalogs/uso-cfdi.json). */
export const USOS_CFDI: readonly { code: string; name: string; regimes: readonly string[] }[] = [
  { code: 'G01', name: 'Adquisición de mercancías', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'G02', name: 'Devoluciones, descuentos o bonificaciones', regimes: ['601', '603', '606', '612', '616', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'G03', name: 'Gastos en general', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I01', name: 'Construcciones', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I02', name: 'Mobiliario y equipo de oficina por inversiones', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I03', name: 'Equipo de transporte', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I04', name: 'Equipo de computo y accesorios', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I05', name: 'Dados, troqueles, moldes, matrices y herramental', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I06', name: 'Comunicaciones telefónicas', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I07', name: 'Comunicaciones satelitales', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'I08', name: 'Otra maquinaria y equipo', regimes: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'D01', name: 'Honorarios médicos, dentales y gastos hospitalarios', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D02', name: 'Gastos médicos por incapacidad o discapacidad', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D03', name: 'Gastos funerales', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D04', name: 'Donativos', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D05', name: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D06', name: 'Aportaciones voluntarias al SAR', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D07', name: 'Primas por seguros de gastos médicos', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D08', name: 'Gastos de transportación escolar obligatoria', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D09', name: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'D10', name: 'Pagos por servicios educativos (colegiaturas)', regimes: ['605', '606', '607', '608', '611', '612', '614', '615', '625'] },
  { code: 'S01', name: 'Sin efectos fiscales', regimes: ['601', '603', '605', '606', '607', '608', '610', '611', '612', '614', '615', '616', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'CP01', name: 'Pagos', regimes: ['601', '603', '605', '606', '607', '608', '610', '611', '612', '614', '615', '616', '620', '621', '622', '623', '624', '625', '626'] },
  { code: 'CN01', name: 'Nómina', regimes: ['605'] },
];

/** Spec §5: unless Uso CFDI is S01, the regime must be one of these. */
export const REGIMES_BEYOND_S01: readonly string[] = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'];

export function regimeName(code: string): string | undefined {
  return TAX_REGIMES.find((r) => r.code === code)?.name;
}

/** Regimes offered for an RFC: personas morales (12) and físicas (13) each see theirs. */
export function regimesFor(rfc: string): typeof TAX_REGIMES {
  const n = normalizeRfc(rfc);
  if (n === RFC_FOREIGN) return TAX_REGIMES.filter((r) => r.code === '616');
  return TAX_REGIMES.filter((r) => (n.length === 12 ? r.moral : r.fisica));
}

/** The spec's rule (§5): the message when the regime does not allow a Uso other than S01, else null. */
export function checkRegimeForUso(regime: string, uso: string): string | null {
  if (uso === 'S01') return null;
  return REGIMES_BEYOND_S01.includes(regime) ? null : MSG.regimeOnlyS01;
}

/** SAT's own matrix (c_UsoCFDI 'Régimen Fiscal Receptor'): the PAC refuses any other pair. */
export function satAllowsUso(regime: string, uso: string): boolean {
  return USOS_CFDI.find((u) => u.code === uso)?.regimes.includes(regime) ?? false;
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
  if (!USOS_CFDI.some((u) => u.code === f.uso)) return { field: 'uso', message: MSG.usoRequired };
  const rule = checkRegimeForUso(f.regime, f.uso);
  if (rule) return { field: 'uso', message: rule };
  if (!f.nombre.trim()) return { field: 'nombre', message: MSG.receiverNameRequired };
  if (!isValidPostalCode(f.postalCode)) return { field: 'postalCode', message: MSG.postalCodeInvalid };
  if (f.rfc === RFC_FOREIGN) {
    if (!/^[A-Z]{3}$/.test(f.residenciaFiscal ?? '')) return { field: 'residenciaFiscal', message: MSG.countryInvalid };
    if (!(f.numRegIdTrib ?? '').trim()) return { field: 'numRegIdTrib', message: MSG.numRegIdTribRequired };
  }
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

/** Where an invoice request is (issue 6 'Where is my invoice?'). 'sustituida' = replaced by a refacturación. */
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
