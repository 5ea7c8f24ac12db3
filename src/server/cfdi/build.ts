// CFDI 4.0 XML from a typed input. Attributes and children follow cfdv40.xsd's order, absent
// optionals are left out, and the amounts (Importe, SubTotal, Descuento, the Impuestos summary,
// Total) are computed here from the conceptos with SAT's rounding rules, in exact decimal
// arithmetic (BigInt), never with floats. SAT rules by code (catalogs/matriz-errores-cfdi40.json):
// 40108 SubTotal = Σ Importe; 40111 Descuento = Σ concept Descuento; 40119 Total = SubTotal −
// Descuento + trasladados − retenidos; 40208 one Retencion per Impuesto; 40212 TotalImpuestos-
// Trasladados only when some traslado is not Exento; 40215/40221 Traslado Base/Importe = Σ over the
// conceptos with the same Impuesto, TipoFactor and TasaOCuota.
import { cfdiFechaAt } from '../../domain/cfdi-time-zone';
import { NS_CFDI40 } from './cadena';

export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
export const CFDI40_SCHEMA_LOCATION = `${NS_CFDI40} http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd`;

/**
 * An amount as a decimal string ("116.00") or a number (rounded half up to the field's decimals).
 * Cantidad and ValorUnitario given as strings are written as given ("1.00" stays "1.00").
 */
export type Amount = string | number;
export type ObjetoImp = '01' | '02' | '03' | '04' | '05' | '06' | '07' | '08';

export interface TrasladoInput {
  impuesto: '002' | '003';
  tipoFactor: 'Tasa' | 'Cuota' | 'Exento';
  /** Required unless tipoFactor is Exento, e.g. "0.160000". */
  tasaOCuota?: Amount;
}

export interface RetencionInput {
  impuesto: '001' | '002' | '003';
  tipoFactor: 'Tasa' | 'Cuota';
  tasaOCuota: Amount;
}

export const IVA_16: TrasladoInput = { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000' };
/** Border-region incentive rate (región fronteriza). */
export const IVA_8: TrasladoInput = { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.080000' };
export const IVA_0: TrasladoInput = { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.000000' };
export const IVA_EXENTO: TrasladoInput = { impuesto: '002', tipoFactor: 'Exento' };

export interface ConceptoInput {
  claveProdServ: string;
  noIdentificacion?: string;
  cantidad: Amount;
  claveUnidad: string;
  unidad?: string;
  descripcion: string;
  valorUnitario: Amount;
  descuento?: Amount;
  objetoImp: ObjetoImp;
  traslados?: readonly TrasladoInput[];
  retenciones?: readonly RetencionInput[];
}

export interface CfdiInput {
  serie?: string;
  folio?: string;
  /** A Date is written as the local time at LugarExpedicion (its postal code's zone); a string must already be SAT's local form. */
  fecha: Date | string;
  formaPago?: string;
  condicionesDePago?: string;
  metodoPago?: 'PUE' | 'PPD';
  /** Defaults to MXN. */
  moneda?: string;
  tipoCambio?: Amount;
  tipoDeComprobante: 'I' | 'E';
  /** Defaults to '01' (no aplica). */
  exportacion?: string;
  lugarExpedicion: string;
  informacionGlobal?: { periodicidad: string; meses: string; anio: string | number };
  cfdiRelacionados?: readonly { tipoRelacion: string; uuids: readonly string[] }[];
  emisor: { rfc: string; nombre: string; regimenFiscal: string; facAtrAdquirente?: string };
  receptor: {
    rfc: string;
    nombre: string;
    domicilioFiscalReceptor: string;
    residenciaFiscal?: string;
    numRegIdTrib?: string;
    regimenFiscalReceptor: string;
    usoCfdi: string;
  };
  conceptos: readonly ConceptoInput[];
}

/** What the seal adds: NoCertificado and Certificado come from the CSD, Sello from signing. */
export interface CertificateFields {
  noCertificado: string;
  certificado: string;
}

export class CfdiBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CfdiBuildError';
  }
}

export const RFC_PUBLICO_GENERAL = 'XAXX010101000';

// ---- exact decimals: values are BigInt "micros" (× 10^6), the finest SAT precision ----------

const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);

function parseAmount(value: Amount, maxDecimals: number, field: string): bigint {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value >= 1e18) throw new CfdiBuildError(`${field}: invalid amount ${value}`);
    text = value.toFixed(maxDecimals);
  } else {
    text = value.trim();
  }
  const m = /^(\d{1,18})(?:\.(\d+))?$/.exec(text);
  if (!m) throw new CfdiBuildError(`${field}: invalid amount "${text}"`);
  const fraction = m[2] ?? '';
  if (fraction.length > maxDecimals) throw new CfdiBuildError(`${field}: more than ${maxDecimals} decimals in "${text}"`);
  return BigInt(m[1]!) * ONE + BigInt(fraction.padEnd(SCALE, '0'));
}

/** a × b (both micros) rounded half up to `decimals`, back in micros: SAT's "redondeo". */
function mulRound(a: bigint, b: bigint, decimals: number): bigint {
  const drop = 10n ** BigInt(2 * SCALE - decimals);
  return ((a * b + drop / 2n) / drop) * 10n ** BigInt(SCALE - decimals);
}

/** Micros as a decimal with exactly `decimals` places ("116.00", or "116" for 0). */
function fixed(micros: bigint, decimals: number): string {
  const digits = (micros / 10n ** BigInt(SCALE - decimals)).toString().padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Micros with at least `min` places and no trailing zeros beyond them ("1", "2.5", "86.206897"). */
function trimmed(micros: bigint, min: number): string {
  const full = fixed(micros, SCALE);
  const [int, frac = ''] = full.split('.');
  let f = frac.replace(/0+$/, '');
  if (f.length < min) f = f.padEnd(min, '0');
  return f === '' ? int! : `${int}.${f}`;
}

/** Currencies whose c_Moneda decimals are not 2 (catalogs/moneda.json); the rest use 2. */
const CURRENCY_DECIMALS: Readonly<Record<string, number>> = {
  BHD: 3, BIF: 0, BYR: 0, CLF: 4, CLP: 0, DJF: 0, GNF: 0, IQD: 3, ISK: 0, JOD: 3, JPY: 0, KMF: 0,
  KRW: 0, KWD: 3, LYD: 3, OMR: 3, PYG: 0, RWF: 0, TND: 3, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0,
  XAG: 0, XAU: 0, XBA: 0, XBB: 0, XBC: 0, XBD: 0, XDR: 0, XOF: 0, XPD: 0, XPF: 0, XPT: 0, XSU: 0,
  XTS: 0, XUA: 0, XXX: 0,
};

export function currencyDecimals(moneda: string): number {
  return CURRENCY_DECIMALS[moneda] ?? 2;
}

// ---- dates -----------------------------------------------------------------------------------

const FECHA_RE = /^20[1-9][0-9]-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

/** SAT's rule CFDI40101: the Fecha is the wall time where the CFDI is issued, LugarExpedicion's zone. */
function fecha(value: Date | string, lugarExpedicion: string): string {
  if (typeof value !== 'string' && Number.isNaN(value.getTime())) throw new CfdiBuildError('Fecha: invalid date');
  const s = typeof value === 'string' ? value : cfdiFechaAt(value, lugarExpedicion);
  if (!FECHA_RE.test(s)) throw new CfdiBuildError(`Fecha: "${s}" is not SAT's local date-time form`);
  return s;
}

// ---- amounts ---------------------------------------------------------------------------------

interface TaxLine { base: bigint; impuesto: string; tipoFactor: string; tasa?: bigint; importe?: bigint }

interface ComputedConcepto {
  input: ConceptoInput;
  /** As written in the XML. */
  cantidad: string;
  valorUnitario: string;
  importe: bigint;
  descuento?: bigint;
  traslados: TaxLine[];
  retenciones: TaxLine[];
}

/** The computed amounts of a CFDI, formatted as they go in the XML. */
export interface CfdiAmounts {
  subTotal: string;
  descuento?: string;
  totalImpuestosTrasladados?: string;
  totalImpuestosRetenidos?: string;
  traslados: { base: string; impuesto: string; tipoFactor: string; tasaOCuota?: string; importe?: string }[];
  retenciones: { impuesto: string; importe: string }[];
  total: string;
}

interface Computed {
  decimals: number;
  conceptos: ComputedConcepto[];
  subTotal: bigint;
  descuento?: bigint;
  traslados: TaxLine[];
  retenciones: TaxLine[];
  totalTrasladados?: bigint;
  totalRetenidos?: bigint;
  total: bigint;
}

const NO_TAX_OBJECTS: readonly string[] = ['01', '03', '04', '05'];

function compute(input: CfdiInput): Computed {
  const d = currencyDecimals(input.moneda ?? 'MXN');
  if (input.conceptos.length === 0) throw new CfdiBuildError('a CFDI needs at least one Concepto');
  const conceptos = input.conceptos.map((c, i): ComputedConcepto => {
    const where = `Concepto ${i + 1}`;
    const cantidad = parseAmount(c.cantidad, 6, `${where} Cantidad`);
    const valorUnitario = parseAmount(c.valorUnitario, 6, `${where} ValorUnitario`);
    if (cantidad === 0n) throw new CfdiBuildError(`${where}: Cantidad must be greater than 0`);
    if (valorUnitario === 0n) throw new CfdiBuildError(`${where}: ValorUnitario must be greater than 0 (CFDI40166)`);
    const importe = mulRound(cantidad, valorUnitario, d);
    const descuento = c.descuento === undefined ? undefined : parseAmount(c.descuento, d, `${where} Descuento`);
    if (descuento !== undefined && descuento > importe) throw new CfdiBuildError(`${where}: Descuento greater than Importe (CFDI40169)`);
    const base = importe - (descuento ?? 0n);
    const traslados = (c.traslados ?? []).map((t): TaxLine => {
      if (t.tipoFactor === 'Exento') {
        if (t.tasaOCuota !== undefined) throw new CfdiBuildError(`${where}: an Exento traslado has no TasaOCuota (CFDI40177)`);
        return { base, impuesto: t.impuesto, tipoFactor: 'Exento' };
      }
      if (t.tasaOCuota === undefined) throw new CfdiBuildError(`${where}: traslado ${t.tipoFactor} needs TasaOCuota (CFDI40178)`);
      const tasa = parseAmount(t.tasaOCuota, 6, `${where} TasaOCuota`);
      return { base, impuesto: t.impuesto, tipoFactor: t.tipoFactor, tasa, importe: mulRound(base, tasa, d) };
    });
    const retenciones = (c.retenciones ?? []).map((r): TaxLine => {
      const tasa = parseAmount(r.tasaOCuota, 6, `${where} retención TasaOCuota`);
      return { base, impuesto: r.impuesto, tipoFactor: r.tipoFactor, tasa, importe: mulRound(base, tasa, d) };
    });
    const taxed = traslados.length + retenciones.length > 0;
    if (c.objetoImp === '02' && !taxed) throw new CfdiBuildError(`${where}: ObjetoImp 02 needs traslados or retenciones`);
    if (NO_TAX_OBJECTS.includes(c.objetoImp) && taxed) throw new CfdiBuildError(`${where}: ObjetoImp ${c.objetoImp} has no Impuestos (CFDI40172)`);
    if (taxed && base === 0n) throw new CfdiBuildError(`${where}: a tax Base must be greater than 0 (CFDI40174)`);
    const cantidadText = typeof c.cantidad === 'string' ? c.cantidad.trim() : trimmed(cantidad, 0);
    const valorUnitarioText = typeof c.valorUnitario === 'string' ? c.valorUnitario.trim() : trimmed(valorUnitario, d);
    return { input: c, cantidad: cantidadText, valorUnitario: valorUnitarioText, importe, descuento, traslados, retenciones };
  });

  const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
  const subTotal = sum(conceptos.map((c) => c.importe));
  const withDiscount = conceptos.filter((c) => c.descuento !== undefined);
  const descuento = withDiscount.length > 0 ? sum(withDiscount.map((c) => c.descuento!)) : undefined;

  // Comprobante-level traslados: one per Impuesto + TipoFactor + TasaOCuota, in first-seen order.
  const traslados = new Map<string, TaxLine>();
  for (const t of conceptos.flatMap((c) => c.traslados)) {
    const key = `${t.impuesto}|${t.tipoFactor}|${t.tasa ?? ''}`;
    const g = traslados.get(key);
    if (!g) traslados.set(key, { ...t });
    else {
      g.base += t.base;
      if (g.importe !== undefined) g.importe += t.importe ?? 0n;
    }
  }
  // Comprobante-level retenciones: one per Impuesto (CFDI40208).
  const retenciones = new Map<string, TaxLine>();
  for (const r of conceptos.flatMap((c) => c.retenciones)) {
    const g = retenciones.get(r.impuesto);
    if (!g) retenciones.set(r.impuesto, { ...r });
    else g.importe = (g.importe ?? 0n) + (r.importe ?? 0n);
  }
  const taxed = [...traslados.values()].filter((t) => t.tipoFactor !== 'Exento');
  const totalTrasladados = taxed.length > 0 ? sum(taxed.map((t) => t.importe ?? 0n)) : undefined;
  const totalRetenidos = retenciones.size > 0 ? sum([...retenciones.values()].map((r) => r.importe ?? 0n)) : undefined;
  const total = subTotal - (descuento ?? 0n) + (totalTrasladados ?? 0n) - (totalRetenidos ?? 0n);
  if (total < 0n) throw new CfdiBuildError('Total would be negative');
  return {
    decimals: d, conceptos, subTotal, descuento,
    traslados: [...traslados.values()], retenciones: [...retenciones.values()],
    totalTrasladados, totalRetenidos, total,
  };
}

/** The amounts buildCfdi writes, without building the XML (for previews and tests). */
export function cfdiAmounts(input: CfdiInput): CfdiAmounts {
  const c = compute(input);
  const m = (v: bigint | undefined) => (v === undefined ? undefined : fixed(v, c.decimals));
  return {
    subTotal: fixed(c.subTotal, c.decimals),
    descuento: m(c.descuento),
    totalImpuestosTrasladados: m(c.totalTrasladados),
    totalImpuestosRetenidos: m(c.totalRetenidos),
    traslados: c.traslados.map((t) => ({
      base: fixed(t.base, c.decimals), impuesto: t.impuesto, tipoFactor: t.tipoFactor,
      tasaOCuota: t.tasa === undefined ? undefined : fixed(t.tasa, 6), importe: m(t.importe),
    })),
    retenciones: c.retenciones.map((r) => ({ impuesto: r.impuesto, importe: fixed(r.importe ?? 0n, c.decimals) })),
    total: fixed(c.total, c.decimals),
  };
}

/**
 * The tax base of a tax-included price (a ticket's total) so that base + round(base × tasa) gives
 * the price back whenever some base can; the nearest base otherwise. E.g. 116.00 at 16 % → 100.00.
 */
export function baseFromGross(gross: Amount, tasaOCuota: Amount, moneda = 'MXN'): string {
  const d = currencyDecimals(moneda);
  const g = parseAmount(gross, d, 'gross');
  const t = parseAmount(tasaOCuota, 6, 'tasa');
  const step = 10n ** BigInt(SCALE - d);
  const first = (((g * ONE) / (ONE + t) + step / 2n) / step) * step;
  const gap = (b: bigint) => {
    const diff = b + mulRound(b, t, d) - g;
    return diff < 0n ? -diff : diff;
  };
  let best = first;
  for (const b of [first - step, first + step]) if (b >= 0n && gap(b) < gap(best)) best = b;
  return fixed(best, d);
}

// ---- XML -------------------------------------------------------------------------------------

interface XmlElement { name: string; attrs: [string, string | undefined][]; children: XmlElement[] }

const el = (name: string, attrs: [string, string | undefined][], children: XmlElement[] = []): XmlElement =>
  ({ name: `cfdi:${name}`, attrs, children });

/** Free text as SAT's cadena will see it (normalize-space), refused if empty, too long or with '|'. */
function text(value: string | undefined, max: number, field: string): string | undefined {
  if (value === undefined) return undefined;
  const v = value.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');
  if (v === '') throw new CfdiBuildError(`${field}: empty`);
  if (v.length > max) throw new CfdiBuildError(`${field}: longer than ${max} characters`);
  if (v.includes('|')) throw new CfdiBuildError(`${field}: '|' is not allowed`);
  return v;
}

function code(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '' || /[\s|]/.test(v)) throw new CfdiBuildError(`${field}: invalid value "${value}"`);
  return v;
}

/** RFCs are upper case in the XML (t_RFC); SAT compares them that way. */
function rfc(value: string, field: string): string {
  return code(value, field)!.toUpperCase();
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new CfdiBuildError(`${field}: required`);
  return value;
}

function tipoCambio(input: CfdiInput, moneda: string): string | undefined {
  if (input.tipoCambio === undefined) {
    if (moneda !== 'MXN' && moneda !== 'XXX') throw new CfdiBuildError(`TipoCambio is required for ${moneda} (CFDI40115)`);
    return undefined;
  }
  if (moneda === 'XXX') throw new CfdiBuildError('TipoCambio must not be given with XXX (CFDI40116)');
  const rate = parseAmount(input.tipoCambio, 6, 'TipoCambio');
  if (moneda === 'MXN' && rate !== ONE) throw new CfdiBuildError('TipoCambio must be 1 for MXN (CFDI40114)');
  return trimmed(rate, 0);
}

function taxLine(t: TaxLine, d: number, withBase: boolean): [string, string | undefined][] {
  return [
    ['Base', withBase ? fixed(t.base, d) : undefined],
    ['Impuesto', t.impuesto],
    ['TipoFactor', withBase ? t.tipoFactor : undefined],
    ['TasaOCuota', withBase && t.tasa !== undefined ? fixed(t.tasa, 6) : undefined],
    ['Importe', t.importe === undefined ? undefined : fixed(t.importe, d)],
  ];
}

function conceptoElement(c: ComputedConcepto, d: number, i: number): XmlElement {
  const x = c.input;
  const where = `Concepto ${i + 1}`;
  const children: XmlElement[] = [];
  if (c.traslados.length + c.retenciones.length > 0) {
    const groups: XmlElement[] = [];
    if (c.traslados.length > 0) groups.push(el('Traslados', [], c.traslados.map((t) => el('Traslado', taxLine(t, d, true)))));
    if (c.retenciones.length > 0) groups.push(el('Retenciones', [], c.retenciones.map((r) => el('Retencion', taxLine(r, d, true)))));
    children.push(el('Impuestos', [], groups));
  }
  return el('Concepto', [
    ['ClaveProdServ', code(x.claveProdServ, `${where} ClaveProdServ`)],
    ['NoIdentificacion', text(x.noIdentificacion, 100, `${where} NoIdentificacion`)],
    ['Cantidad', c.cantidad],
    ['ClaveUnidad', code(x.claveUnidad, `${where} ClaveUnidad`)],
    ['Unidad', text(x.unidad, 20, `${where} Unidad`)],
    ['Descripcion', text(x.descripcion, 1000, `${where} Descripcion`)],
    ['ValorUnitario', c.valorUnitario],
    ['Importe', fixed(c.importe, d)],
    ['Descuento', c.descuento === undefined ? undefined : fixed(c.descuento, d)],
    ['ObjetoImp', x.objetoImp],
  ], children);
}

function comprobante(input: CfdiInput, cert: CertificateFields, sello: string): XmlElement {
  const moneda = code(input.moneda ?? 'MXN', 'Moneda')!;
  const c = compute(input);
  const d = c.decimals;
  const { emisor, receptor } = input;
  if (input.metodoPago === 'PPD' && input.formaPago !== '99') throw new CfdiBuildError('FormaPago must be 99 with PPD (CFDI40104)');
  const generic = receptor.rfc.trim().toUpperCase() === RFC_PUBLICO_GENERAL;
  if (generic && receptor.nombre.trim().toUpperCase() === 'PUBLICO EN GENERAL' && input.tipoDeComprobante === 'I' && !input.informacionGlobal) {
    throw new CfdiBuildError('InformacionGlobal is required for PUBLICO EN GENERAL (CFDI40130)');
  }

  const children: XmlElement[] = [];
  const g = input.informacionGlobal;
  if (g) {
    children.push(el('InformacionGlobal', [
      ['Periodicidad', code(g.periodicidad, 'Periodicidad')], ['Meses', code(g.meses, 'Meses')], ['Año', code(String(g.anio), 'Año')],
    ]));
  }
  for (const r of input.cfdiRelacionados ?? []) {
    if (r.uuids.length === 0) throw new CfdiBuildError('CfdiRelacionados needs at least one UUID');
    children.push(el('CfdiRelacionados', [['TipoRelacion', code(r.tipoRelacion, 'TipoRelacion')]],
      r.uuids.map((u) => el('CfdiRelacionado', [['UUID', code(u, 'UUID')]]))));
  }
  children.push(el('Emisor', [
    ['Rfc', rfc(emisor.rfc, 'Emisor Rfc')],
    ['Nombre', text(emisor.nombre, 300, 'Emisor Nombre')],
    ['RegimenFiscal', code(emisor.regimenFiscal, 'RegimenFiscal')],
    ['FacAtrAdquirente', code(emisor.facAtrAdquirente, 'FacAtrAdquirente')],
  ]));
  children.push(el('Receptor', [
    ['Rfc', rfc(receptor.rfc, 'Receptor Rfc')],
    ['Nombre', text(receptor.nombre, 300, 'Receptor Nombre')],
    ['DomicilioFiscalReceptor', code(receptor.domicilioFiscalReceptor, 'DomicilioFiscalReceptor')],
    ['ResidenciaFiscal', code(receptor.residenciaFiscal, 'ResidenciaFiscal')],
    ['NumRegIdTrib', text(receptor.numRegIdTrib, 40, 'NumRegIdTrib')],
    ['RegimenFiscalReceptor', code(receptor.regimenFiscalReceptor, 'RegimenFiscalReceptor')],
    ['UsoCFDI', code(receptor.usoCfdi, 'UsoCFDI')],
  ]));
  children.push(el('Conceptos', [], c.conceptos.map((x, i) => conceptoElement(x, d, i))));
  if (c.traslados.length + c.retenciones.length > 0) {
    const groups: XmlElement[] = [];
    if (c.retenciones.length > 0) groups.push(el('Retenciones', [], c.retenciones.map((r) => el('Retencion', taxLine(r, d, false)))));
    if (c.traslados.length > 0) groups.push(el('Traslados', [], c.traslados.map((t) => el('Traslado', taxLine(t, d, true)))));
    children.push(el('Impuestos', [
      ['TotalImpuestosRetenidos', c.totalRetenidos === undefined ? undefined : fixed(c.totalRetenidos, d)],
      ['TotalImpuestosTrasladados', c.totalTrasladados === undefined ? undefined : fixed(c.totalTrasladados, d)],
    ], groups));
  }

  return el('Comprobante', [
    ['xmlns:cfdi', NS_CFDI40],
    ['xmlns:xsi', XSI],
    ['xsi:schemaLocation', CFDI40_SCHEMA_LOCATION],
    ['Version', '4.0'],
    ['Serie', text(input.serie, 25, 'Serie')],
    ['Folio', text(input.folio, 40, 'Folio')],
    ['Fecha', fecha(input.fecha, input.lugarExpedicion)],
    ['Sello', sello],
    ['FormaPago', code(input.formaPago, 'FormaPago')],
    ['NoCertificado', required(code(cert.noCertificado, 'NoCertificado'), 'NoCertificado')],
    ['Certificado', required(code(cert.certificado, 'Certificado'), 'Certificado')],
    ['CondicionesDePago', text(input.condicionesDePago, 1000, 'CondicionesDePago')],
    ['SubTotal', fixed(c.subTotal, d)],
    ['Descuento', c.descuento === undefined ? undefined : fixed(c.descuento, d)],
    ['Moneda', moneda],
    ['TipoCambio', tipoCambio(input, moneda)],
    ['Total', fixed(c.total, d)],
    ['TipoDeComprobante', input.tipoDeComprobante],
    ['Exportacion', code(input.exportacion ?? '01', 'Exportacion')],
    ['MetodoPago', code(input.metodoPago, 'MetodoPago')],
    ['LugarExpedicion', code(input.lugarExpedicion, 'LugarExpedicion')],
  ], children);
}

function escapeAttr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function serialize(e: XmlElement, indent: string, out: string[]): void {
  const attrs = e.attrs.filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${escapeAttr(v!)}"`).join('');
  if (e.children.length === 0) {
    out.push(`${indent}<${e.name}${attrs}/>`);
    return;
  }
  out.push(`${indent}<${e.name}${attrs}>`);
  for (const child of e.children) serialize(child, `${indent}  `, out);
  out.push(`${indent}</${e.name}>`);
}

/**
 * The CFDI 4.0 XML of `input`. Sealing builds it once with an empty Sello (the Sello is not part of
 * the cadena original), signs the cadena, then builds it again with the Sello.
 */
export function buildCfdi(input: CfdiInput, cert: CertificateFields, sello = ''): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  serialize(comprobante(input, cert, sello), '', out);
  return `${out.join('\n')}\n`;
}
