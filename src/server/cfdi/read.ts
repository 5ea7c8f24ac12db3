// Reads a CFDI (3.2, 3.3, 4.0) from untrusted bytes into just the facts the app needs,
// or refuses it with a Spanish reason. Safety first, in this order: size cap, a byte scan
// that refuses any <!DOCTYPE / <!ENTITY before a parser sees the file (so no entity can expand and
// nothing external is fetched), strict UTF-8, then saxes — pure JS, streaming events, no DOM, no
// entity expansion — and elements are matched by namespace URI, never by prefix.
//
// Money stays in strings: totals as written, computed figures (amountMxn, tax totals) as exact
// two-decimal strings from src/domain/decimal.
//
// Decisions worth knowing:
// - CFDI 3.2 is read too (lower-case attributes, TFD 1.0): SAT's bulk download still returns them.
//   Its TipoDeComprobante words map to I/E/T; its formaDePago text maps to PUE/PPD when it says
//   "una sola exhibición"/"parcialidades"; its metodoDePago (payment means) becomes formaPago.
// - amountMxn: Total × TipoCambio when Moneda is neither MXN nor XXX (TipoCambio then required;
//   otherwise it is kept as written and not checked). 3.2's free-text Moneda ("MN", "Pesos") means MXN.
//   Pagos (P): the payments' own figure, since a P's Total is 0 — Pagos 2.0 pago20:Totales
//   @MontoTotalPagos (SAT states it in MXN), Pagos 1.0 Σ Monto × TipoCambioP.
// - Tax totals (trasladados/retenidos), in the CFDI's Moneda: Comprobante/Impuestos totals (the
//   sum of its lines when the total attribute is absent) plus implocal:ImpuestosLocales; Nómina
//   adds nomina12 Deducciones@TotalImpuestosRetenidos (the ISR withheld); Pagos 2.0 uses
//   pago20:Totales (IVA 16/8/0 transferred; IVA, ISR, IEPS withheld — in MXN), Pagos 1.0
//   Σ pago10:Impuestos totals × TipoCambioP.
// - Several TimbreFiscalDigital: the first child of cfdi:Complemento wins (tfdCount says how many).
//   TFDs anywhere else (an Addenda copying one) are ignored.
// - formaPago of a P without Comprobante@FormaPago: the first payment's FormaDePagoP.
// - numCtaPago: 3.2 @NumCtaPago; otherwise the first payment's CtaOrdenante; else ''.
// - A namespace-invalid but well-formed file (a bogus xmlns:schemaLocation) is accepted: the
//   declaration only binds an unused prefix, and refusing real invoices over it helps nobody.
// - Nesting deeper than MAX_DEPTH is refused: saxes' namespace handling makes it quadratic.
// - Retenciones (CFDI de retenciones e información de pagos) are recognised and refused by name.
import type { Document } from '@xmldom/xmldom';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { formatCents, isDecimal, productCents, toCents } from '../../domain/decimal';
import { MSG } from '../../domain/messages';
import { LightTreeBuilder, MAX_DEPTH } from './light-xml';

export { MAX_DEPTH };

/** The upload limit (spec §9: 2 MB per file). */
export const CFDI_MAX_BYTES = 2 * 1024 * 1024;

export type CfdiVersion = '3.2' | '3.3' | '4.0';
export type TipoDeComprobante = 'I' | 'E' | 'T' | 'N' | 'P';

export interface CfdiIssuer {
  rfc: string;
  nombre: string;
  /** c_RegimenFiscal code (3.3/4.0), or 3.2's free text. */
  regimen: string;
}

export interface CfdiReceiver {
  rfc: string;
  nombre: string;
  usoCfdi: string;
  /** DomicilioFiscalReceptor (4.0 postal code); 3.2: Domicilio@codigoPostal. */
  domicilio: string;
  regimen: string;
  residenciaFiscal: string;
  numRegIdTrib: string;
}

export interface CfdiConcepto {
  claveProdServ: string;
  noIdentificacion: string;
  cantidad: string;
  claveUnidad: string;
  unidad: string;
  descripcion: string;
  valorUnitario: string;
  importe: string;
  descuento: string;
  objetoImp: string;
}

/** One line of Comprobante/Impuestos or of implocal (local: true), values as written. */
export interface CfdiTaxLine {
  kind: 'traslado' | 'retencion';
  /** c_Impuesto code (001 ISR, 002 IVA, 003 IEPS); 3.2 and local taxes: the name as written. */
  impuesto: string;
  tipoFactor: string;
  /** 3.3/4.0: a rate such as 0.160000; 3.2 and local taxes: a percentage such as 16. */
  tasaOCuota: string;
  base: string;
  importe: string;
  local: boolean;
}

export interface CfdiDocumentoPagado {
  idDocumento: string;
  serie: string;
  folio: string;
  monedaDR: string;
  numParcialidad: string;
  impSaldoAnt: string;
  impPagado: string;
  impSaldoInsoluto: string;
}

export interface CfdiPago {
  fechaPago: string;
  formaDePagoP: string;
  monedaP: string;
  tipoCambioP: string;
  monto: string;
  numOperacion: string;
  rfcEmisorCtaOrd: string;
  ctaOrdenante: string;
  ctaBeneficiario: string;
  documentos: CfdiDocumentoPagado[];
}

export interface CfdiPagos {
  version: '1.0' | '2.0';
  /** All payments in MXN, two decimals (see the header for where it comes from). */
  montoTotalMxn: string;
  pagos: CfdiPago[];
}

export interface CfdiNomina {
  version: string;
  tipoNomina: string;
  fechaPago: string;
  fechaInicialPago: string;
  fechaFinalPago: string;
  numDiasPagados: string;
  totalPercepciones: string;
  totalDeducciones: string;
  totalOtrosPagos: string;
  /** Deducciones@TotalImpuestosRetenidos (ISR withheld), as written; '' when absent. */
  impuestosRetenidos: string;
}

/** One CfdiRelacionados: its TipoRelacion (c_TipoRelacion: 01 nota de crédito, 04 sustitución, …) and UUIDs. */
export interface CfdiRelacion {
  tipoRelacion: string;
  /** Upper case, as the receipts store them. */
  uuids: string[];
}

export interface CfdiData {
  version: CfdiVersion;
  /** The first TimbreFiscalDigital's UUID, upper case (compare and store this one). */
  uuid: string;
  /** The same UUID exactly as written (SAT's QR expression uses it as is). */
  uuidAsWritten: string;
  fechaTimbrado: string;
  serie: string;
  folio: string;
  /** Emission date as written: Mexico City local time, no offset. */
  fecha: string;
  lugarExpedicion: string;
  tipoDeComprobante: TipoDeComprobante;
  exportacion: string;
  condicionesDePago: string;
  issuer: CfdiIssuer;
  receiver: CfdiReceiver;
  moneda: string;
  /** As written; '' when absent. */
  tipoCambio: string;
  /** Comprobante@Confirmacion (the PAC's key for an amount or rate out of range); '' when absent. */
  confirmacion: string;
  subTotal: string;
  /** As written; '' when absent. */
  descuento: string;
  total: string;
  /** The amount in pesos, two decimals (see the header). */
  amountMxn: string;
  /** Taxes transferred / withheld, two decimals (see the header for sources and currency). */
  trasladados: string;
  retenidos: string;
  taxLines: CfdiTaxLine[];
  metodoPago: string;
  formaPago: string;
  numCtaPago: string;
  conceptos: CfdiConcepto[];
  /** Comprobante@Sello, whitespace removed. */
  sello: string;
  noCertificado: string;
  tfdVersion: string;
  /** TFD@SelloCFD (should equal sello; import does not insist). */
  selloCfd: string;
  selloSat: string;
  noCertificadoSat: string;
  rfcProvCertif: string;
  leyenda: string;
  /** How many TimbreFiscalDigital children cfdi:Complemento has (the first one is used). */
  tfdCount: number;
  /** Local names of cfdi:Complemento's children, in order, without repeats ('TimbreFiscalDigital', 'Pagos', …). */
  complements: string[];
  pagos: CfdiPagos | null;
  nomina: CfdiNomina | null;
  /** CfdiRelacionados (3.3: at most one; 4.0: several), in order. */
  relacionados: CfdiRelacion[];
}

export type CfdiReadResult = { ok: true; cfdi: CfdiData } | { ok: false; reason: string; detail?: string };

const NS = {
  cfd3: 'http://www.sat.gob.mx/cfd/3',
  cfd4: 'http://www.sat.gob.mx/cfd/4',
  tfd: 'http://www.sat.gob.mx/TimbreFiscalDigital',
  pagos10: 'http://www.sat.gob.mx/Pagos',
  pagos20: 'http://www.sat.gob.mx/Pagos20',
  nomina12: 'http://www.sat.gob.mx/nomina12',
  implocal: 'http://www.sat.gob.mx/implocal',
} as const;
const RETENCIONES_NS = /^http:\/\/www\.sat\.gob\.mx\/esquemas\/retencionpago\/\d+$/;

/** Namespace URI → the short tag our element keys start with ('c' is the root's own CFDI namespace). */
const NS_TAG = new Map<string, string>([
  [NS.tfd, 't'],
  [NS.pagos10, 'p1'],
  [NS.pagos20, 'p2'],
  [NS.nomina12, 'n'],
  [NS.implocal, 'l'],
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL_UUID = /^[0-]+$/;
const TIPOS = new Set(['I', 'E', 'T', 'N', 'P']);
const TIPOS_32: Record<string, TipoDeComprobante> = { ingreso: 'I', egreso: 'E', traslado: 'T' };
const NO_CONVERSION = new Set(['MXN', 'XXX']);

/** Thrown inside the parse to stop at the first reason to refuse. */
class Refusal extends Error {
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(detail ? `${reason} ${detail}` : reason);
  }
}

const missing = (field: string) => new Refusal(`${MSG.cfdiMissing} ${field}`, field);
const invalid = (field: string) => new Refusal(`${MSG.cfdiInvalid} ${field}`, field);

export function readCfdi(bytes: Uint8Array, tree?: LightTreeBuilder): CfdiReadResult {
  try {
    return { ok: true, cfdi: read(bytes, tree) };
  } catch (e) {
    if (e instanceof Refusal) return e.detail ? { ok: false, reason: e.reason, detail: e.detail } : { ok: false, reason: e.reason };
    throw e;
  }
}

/**
 * readCfdi that also keeps the whole document as a light tree (light-xml.ts) from the same parse, for
 * the checks that walk it (the seals' cadenas, SAT's rules); the tree only when the CFDI was accepted.
 */
export function readCfdiAndTree(bytes: Uint8Array): { read: CfdiReadResult; doc: Document | null } {
  const tree = new LightTreeBuilder();
  const read = readCfdi(bytes, tree);
  return { read, doc: read.ok ? tree.document() : null };
}

function read(bytes: Uint8Array, tree?: LightTreeBuilder): CfdiData {
  if (bytes.byteLength > CFDI_MAX_BYTES) throw new Refusal(MSG.cfdiTooLarge);
  if (hasDtdMarkup(bytes)) throw new Refusal(MSG.cfdiDoctype);
  const text = decodeUtf8(bytes);
  if (!/^\s*</.test(text)) throw new Refusal(MSG.cfdiNotXml);
  const raw = parse(text, tree);
  return assemble(raw);
}

// ---------------------------------------------------------------------------------------------
// Before parsing

const LT = 0x3c;
const DOCTYPE = [0x44, 0x4f, 0x43, 0x54, 0x59, 0x50, 0x45];
const ENTITY = [0x45, 0x4e, 0x54, 0x49, 0x54, 0x59];

/** Any "<!DOCTYPE" or "<!ENTITY" (ASCII case-insensitive) anywhere in the bytes. */
export function hasDtdMarkup(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = buf.indexOf('<!'); i !== -1; i = buf.indexOf('<!', i + 2)) {
    if (matchesUpper(buf, i + 2, DOCTYPE) || matchesUpper(buf, i + 2, ENTITY)) return true;
  }
  return false;
}

function matchesUpper(buf: Uint8Array, at: number, word: readonly number[]): boolean {
  if (at + word.length > buf.length) return false;
  for (let k = 0; k < word.length; k++) {
    // ASCII letters only: clearing bit 0x20 upper-cases them.
    if ((buf[at + k]! & 0xdf) !== word[k]) return false;
  }
  return true;
}

const utf8 = new TextDecoder('utf-8', { fatal: true }); // drops a UTF-8 BOM

function decodeUtf8(bytes: Uint8Array): string {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) throw new Refusal(MSG.cfdiNotUtf8); // UTF-16 BOM
  try {
    return utf8.decode(bytes);
  } catch {
    // Text that starts like XML but is, say, Latin-1 gets the precise reason; anything else is not XML.
    let i = b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
    throw new Refusal(bytes[i] === LT ? MSG.cfdiNotUtf8 : MSG.cfdiNotXml);
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing: saxes events into a few plain records

type Attrs = Record<string, { value: string }>;

interface RawPago {
  a: Attrs;
  docs: Attrs[];
  /** Pagos 1.0: pago10:Impuestos of this payment. */
  impuestos: Attrs | null;
}

interface Raw {
  cfdiNs: string;
  root: Attrs;
  emisor: Attrs | null;
  regimen32: string;
  receptor: Attrs | null;
  domicilio32: string;
  relacionados: { a: Attrs; uuids: string[] }[];
  conceptos: Attrs[];
  impuestos: Attrs | null;
  taxLines: CfdiTaxLine[];
  tfds: Attrs[];
  complements: string[];
  /** The complement whose children are being read: the first Pagos, Nomina or ImpuestosLocales. */
  activeComplement: string;
  pagosVersion: string;
  totales: Attrs | null;
  pagos: RawPago[];
  nomina: Attrs | null;
  nominaDeducciones: Attrs | null;
  implocal: Attrs | null;
}

const PARSER_OPTIONS = { xmlns: true, position: true } as const;

function parse(text: string, tree?: LightTreeBuilder): Raw {
  const raw: Raw = {
    cfdiNs: '',
    root: {},
    emisor: null,
    regimen32: '',
    receptor: null,
    domicilio32: '',
    relacionados: [],
    conceptos: [],
    impuestos: null,
    taxLines: [],
    tfds: [],
    complements: [],
    activeComplement: '',
    pagosVersion: '',
    totales: null,
    pagos: [],
    nomina: null,
    nominaDeducciones: null,
    implocal: null,
  };
  // Element keys from the root down: 'c:Comprobante', 'c:Impuestos', 't:TimbreFiscalDigital', …
  const stack: string[] = [];
  const parser = new SaxesParser(PARSER_OPTIONS);
  parser.on('error', (e) => {
    throw new Refusal(MSG.cfdiMalformed, e.message);
  });
  parser.on('doctype', () => {
    throw new Refusal(MSG.cfdiDoctype); // the byte scan already refused these; kept as a second lock
  });
  parser.on('closetag', () => {
    stack.pop();
    tree?.close();
  });
  if (tree) {
    parser.on('text', (t: string) => tree.text(t));
    parser.on('cdata', (t: string) => tree.cdata(t));
  }
  parser.on('opentag', (tag: SaxesTagNS) => {
    const depth = stack.length;
    // saxes resolves namespaces through every open ancestor, so deep nesting costs quadratic time
    // (150,000 levels fit in 2 MB and take minutes); a CFDI needs under ten.
    if (depth >= MAX_DEPTH) throw new Refusal(MSG.cfdiTooDeep);
    tree?.open(tag);
    if (depth === 0) {
      raw.cfdiNs = rootNamespace(tag);
      raw.root = tag.attributes;
      stack.push('c:Comprobante');
      return;
    }
    const ns = tag.uri === raw.cfdiNs ? 'c' : (NS_TAG.get(tag.uri) ?? '');
    const key = `${ns}:${tag.local}`;
    stack.push(key);
    onElement(raw, stack, depth, key, tag);
  });
  parser.write(text).close();
  return raw;
}

function rootNamespace(tag: SaxesTagNS): string {
  if (tag.local === 'Comprobante' && (tag.uri === NS.cfd3 || tag.uri === NS.cfd4)) return tag.uri;
  if (RETENCIONES_NS.test(tag.uri)) throw new Refusal(MSG.cfdiRetenciones);
  throw new Refusal(MSG.cfdiNotCfdi);
}

/** Picks the elements we need by their position under the root; everything else (Addenda…) is skipped. */
function onElement(raw: Raw, stack: readonly string[], depth: number, key: string, tag: SaxesTagNS): void {
  const a = tag.attributes;
  const parent = stack[depth - 1];
  if (depth === 1) {
    if (key === 'c:Emisor') raw.emisor ??= a;
    else if (key === 'c:Receptor') raw.receptor ??= a;
    else if (key === 'c:Impuestos') raw.impuestos ??= a;
    else if (key === 'c:CfdiRelacionados') raw.relacionados.push({ a, uuids: [] });
    return;
  }
  const top = stack[1];
  if (depth === 2) {
    if (key === 'c:Concepto' && parent === 'c:Conceptos') raw.conceptos.push(a);
    else if (parent === 'c:Complemento') onComplement(raw, key, tag);
    else if (key === 'c:RegimenFiscal' && parent === 'c:Emisor' && !raw.regimen32) raw.regimen32 = attr(a, 'Regimen');
    else if (key === 'c:Domicilio' && parent === 'c:Receptor') raw.domicilio32 = attr(a, 'codigoPostal');
    else if (key === 'c:CfdiRelacionado' && parent === 'c:CfdiRelacionados') raw.relacionados[raw.relacionados.length - 1]?.uuids.push(attr(a, 'UUID').toUpperCase());
    return;
  }
  if (top === 'c:Impuestos' && depth === 3) {
    if (key === 'c:Traslado' && parent === 'c:Traslados') raw.taxLines.push(federalTax('traslado', a));
    else if (key === 'c:Retencion' && parent === 'c:Retenciones') raw.taxLines.push(federalTax('retencion', a));
    return;
  }
  // Inside a complement: only the first of each kind is read (see onComplement).
  if (top !== 'c:Complemento' || stack[2] !== raw.activeComplement) return;
  if (depth === 3) {
    if (key === 'p2:Totales') raw.totales ??= a;
    else if (key === 'p2:Pago' || key === 'p1:Pago') raw.pagos.push({ a, docs: [], impuestos: null });
    else if (key === 'n:Deducciones') raw.nominaDeducciones ??= a;
    else if (key === 'l:TrasladosLocales') raw.taxLines.push(localTax('traslado', a));
    else if (key === 'l:RetencionesLocales') raw.taxLines.push(localTax('retencion', a));
    return;
  }
  if (depth === 4 && (parent === 'p2:Pago' || parent === 'p1:Pago')) {
    const pago = raw.pagos[raw.pagos.length - 1]!;
    if (key === 'p2:DoctoRelacionado' || key === 'p1:DoctoRelacionado') pago.docs.push(a);
    else if (key === 'p1:Impuestos') pago.impuestos = a;
  }
}

function onComplement(raw: Raw, key: string, tag: SaxesTagNS): void {
  if (!raw.complements.includes(tag.local)) raw.complements.push(tag.local);
  const a = tag.attributes;
  raw.activeComplement = '';
  if (key === 't:TimbreFiscalDigital') raw.tfds.push(a);
  else if ((key === 'p2:Pagos' || key === 'p1:Pagos') && !raw.pagosVersion) {
    raw.pagosVersion = key === 'p2:Pagos' ? '2.0' : '1.0';
    raw.activeComplement = key;
  } else if (key === 'n:Nomina' && !raw.nomina) {
    raw.nomina = a;
    raw.activeComplement = key;
  } else if (key === 'l:ImpuestosLocales' && !raw.implocal) {
    raw.implocal = a;
    raw.activeComplement = key;
  }
}

function federalTax(kind: CfdiTaxLine['kind'], a: Attrs): CfdiTaxLine {
  return {
    kind,
    impuesto: attr2(a, 'Impuesto', 'impuesto'),
    tipoFactor: attr(a, 'TipoFactor'),
    tasaOCuota: attr2(a, 'TasaOCuota', 'tasa'),
    base: attr(a, 'Base'),
    importe: attr2(a, 'Importe', 'importe'),
    local: false,
  };
}

function localTax(kind: CfdiTaxLine['kind'], a: Attrs): CfdiTaxLine {
  const t = kind === 'traslado';
  return {
    kind,
    impuesto: clean(attr(a, t ? 'ImpLocTrasladado' : 'ImpLocRetenido')),
    tipoFactor: '',
    tasaOCuota: attr(a, t ? 'TasadeTraslado' : 'TasadeRetencion'),
    base: '',
    importe: attr(a, 'Importe'),
    local: true,
  };
}

// ---------------------------------------------------------------------------------------------
// From records to CfdiData, checking what the app relies on

const attr = (a: Attrs | null, name: string): string => (a?.[name]?.value ?? '').trim();
/** 3.3/4.0 name first, then 3.2's lower-case one. */
const attr2 = (a: Attrs | null, name: string, name32: string): string => attr(a, name) || attr(a, name32);
/** Names and descriptions: line breaks and runs of spaces become one space. */
const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();
const noSpaces = (s: string): string => s.replace(/\s+/g, '');

function versionOf(raw: Raw): CfdiVersion {
  const v = raw.cfdiNs === NS.cfd4 ? attr(raw.root, 'Version') : attr(raw.root, 'Version') || attr(raw.root, 'version');
  if (raw.cfdiNs === NS.cfd4 && v === '4.0') return '4.0';
  if (raw.cfdiNs === NS.cfd3 && (v === '3.3' || v === '3.2')) return v;
  throw new Refusal(MSG.cfdiVersion, v || '(sin versión)');
}

/** A required decimal attribute, as written. */
function amount(a: Attrs | null, name: string, name32: string, field: string): string {
  const v = attr2(a, name, name32);
  if (!v) throw missing(field);
  if (!isDecimal(v)) throw invalid(field);
  return v;
}

/** An optional decimal attribute, as written ('' when absent). */
function optionalAmount(a: Attrs | null, name: string, name32: string, field: string): string {
  const v = attr2(a, name, name32);
  if (v && !isDecimal(v)) throw invalid(field);
  return v;
}

function cents(v: string, field: string): bigint {
  const c = toCents(v);
  if (c === null) throw invalid(field);
  return c;
}

function assemble(raw: Raw): CfdiData {
  const version = versionOf(raw);
  const v32 = version === '3.2';
  const r = raw.root;

  const tipoRaw = attr2(r, 'TipoDeComprobante', 'tipoDeComprobante');
  const tipo = v32 ? TIPOS_32[tipoRaw.toLowerCase()] : TIPOS.has(tipoRaw) ? (tipoRaw as TipoDeComprobante) : undefined;
  if (!tipoRaw) throw missing('TipoDeComprobante');
  if (!tipo) throw invalid('TipoDeComprobante');
  const fecha = attr2(r, 'Fecha', 'fecha');
  if (!fecha) throw missing('Fecha');
  const subTotal = amount(r, 'SubTotal', 'subTotal', 'SubTotal');
  const total = amount(r, 'Total', 'total', 'Total');
  const descuento = optionalAmount(r, 'Descuento', 'descuento', 'Descuento');
  const moneda = v32 ? moneda32(attr(r, 'Moneda')) : attr(r, 'Moneda').toUpperCase();
  if (!moneda) throw missing('Moneda');
  const tipoCambio = attr(r, 'TipoCambio');

  if (!raw.emisor) throw missing('Emisor');
  const issuerRfc = attr2(raw.emisor, 'Rfc', 'rfc').toUpperCase();
  if (!issuerRfc) throw missing('Emisor/Rfc');
  if (!raw.receptor) throw missing('Receptor');
  const receiverRfc = attr2(raw.receptor, 'Rfc', 'rfc').toUpperCase();
  if (!receiverRfc) throw missing('Receptor/Rfc');

  const tfd = raw.tfds[0];
  if (!tfd) throw new Refusal(MSG.cfdiNoUuid);
  const uuidAsWritten = attr(tfd, 'UUID');
  if (!uuidAsWritten) throw new Refusal(MSG.cfdiNoUuid);
  // A placeholder timbre (the nil UUID of demo files) is no timbre at all: refused like a malformed one.
  if (!UUID.test(uuidAsWritten) || NIL_UUID.test(uuidAsWritten)) throw new Refusal(MSG.cfdiBadUuid, uuidAsWritten);

  const pagos = tipo === 'P' ? readPagos(raw) : null;
  const nomina = raw.nomina ? readNomina(raw) : null;
  const firstPago = pagos?.pagos[0];

  let amountMxn: bigint;
  if (pagos) amountMxn = cents(pagos.montoTotalMxn, 'MontoTotalPagos');
  else if (NO_CONVERSION.has(moneda)) amountMxn = cents(total, 'Total');
  else {
    if (!tipoCambio) throw missing('TipoCambio');
    const product = productCents(total, tipoCambio); // Total is a decimal by now
    if (product === null) throw invalid('TipoCambio');
    amountMxn = product;
  }

  const taxes = tipo === 'P' ? paymentTaxes(raw) : documentTaxes(raw, nomina);
  const formaDePago32 = attr(r, 'formaDePago');

  return {
    version,
    uuid: uuidAsWritten.toUpperCase(),
    uuidAsWritten,
    fechaTimbrado: attr(tfd, 'FechaTimbrado'),
    serie: clean(attr2(r, 'Serie', 'serie')),
    folio: clean(attr2(r, 'Folio', 'folio')),
    fecha,
    lugarExpedicion: clean(attr(r, 'LugarExpedicion')),
    tipoDeComprobante: tipo,
    exportacion: attr(r, 'Exportacion'),
    condicionesDePago: clean(attr2(r, 'CondicionesDePago', 'condicionesDePago')),
    issuer: {
      rfc: issuerRfc,
      nombre: clean(attr2(raw.emisor, 'Nombre', 'nombre')),
      regimen: v32 ? clean(raw.regimen32) : attr(raw.emisor, 'RegimenFiscal'),
    },
    receiver: {
      rfc: receiverRfc,
      nombre: clean(attr2(raw.receptor, 'Nombre', 'nombre')),
      usoCfdi: attr(raw.receptor, 'UsoCFDI'),
      domicilio: v32 ? raw.domicilio32.trim() : attr(raw.receptor, 'DomicilioFiscalReceptor'),
      regimen: attr(raw.receptor, 'RegimenFiscalReceptor'),
      residenciaFiscal: attr(raw.receptor, 'ResidenciaFiscal'),
      numRegIdTrib: attr(raw.receptor, 'NumRegIdTrib'),
    },
    moneda,
    tipoCambio,
    confirmacion: attr(r, 'Confirmacion'),
    subTotal,
    descuento,
    total,
    amountMxn: formatCents(amountMxn),
    trasladados: formatCents(taxes.trasladados),
    retenidos: formatCents(taxes.retenidos),
    taxLines: raw.taxLines,
    metodoPago: v32 ? metodoPago32(formaDePago32) : attr(r, 'MetodoPago'),
    formaPago: v32 ? clean(attr(r, 'metodoDePago')) : attr(r, 'FormaPago') || firstPago?.formaDePagoP || '',
    numCtaPago: v32 ? attr(r, 'NumCtaPago') : firstPago?.ctaOrdenante || '',
    conceptos: raw.conceptos.map(concepto),
    sello: noSpaces(attr2(r, 'Sello', 'sello')),
    noCertificado: attr2(r, 'NoCertificado', 'noCertificado'),
    tfdVersion: attr2(tfd, 'Version', 'version'),
    selloCfd: noSpaces(attr2(tfd, 'SelloCFD', 'selloCFD')),
    selloSat: noSpaces(attr2(tfd, 'SelloSAT', 'selloSAT')),
    noCertificadoSat: attr2(tfd, 'NoCertificadoSAT', 'noCertificadoSAT'),
    rfcProvCertif: attr(tfd, 'RfcProvCertif'),
    leyenda: clean(attr(tfd, 'Leyenda')),
    tfdCount: raw.tfds.length,
    complements: raw.complements,
    pagos,
    nomina,
    relacionados: raw.relacionados.map((x) => ({ tipoRelacion: attr(x.a, 'TipoRelacion'), uuids: x.uuids.filter((u) => u !== '') })),
  };
}

/** 3.2's Moneda was free text ("MN", "Pesos", "MXP"…) and optional: pesos unless it names another code. */
function moneda32(written: string): string {
  const m = written.trim().toUpperCase();
  if (!m || /^(MXN|MXP|M\.?N\.?|PESOS?( MEXICANOS?)?|MONEDA NACIONAL|NACIONAL)$/.test(m)) return 'MXN';
  return m;
}

function metodoPago32(formaDePago: string): string {
  if (/una sola exhibici[oó]n/i.test(formaDePago)) return 'PUE';
  if (/parcialidad/i.test(formaDePago)) return 'PPD';
  return '';
}

function concepto(a: Attrs): CfdiConcepto {
  return {
    claveProdServ: attr(a, 'ClaveProdServ'),
    noIdentificacion: clean(attr2(a, 'NoIdentificacion', 'noIdentificacion')),
    cantidad: attr2(a, 'Cantidad', 'cantidad'),
    claveUnidad: attr(a, 'ClaveUnidad'),
    unidad: clean(attr2(a, 'Unidad', 'unidad')),
    descripcion: clean(attr2(a, 'Descripcion', 'descripcion')),
    valorUnitario: attr2(a, 'ValorUnitario', 'valorUnitario'),
    importe: attr2(a, 'Importe', 'importe'),
    descuento: attr(a, 'Descuento'),
    objetoImp: attr(a, 'ObjetoImp'),
  };
}

function readPagos(raw: Raw): CfdiPagos {
  if (!raw.pagosVersion) throw missing('Complemento/Pagos');
  const pagos: CfdiPago[] = raw.pagos.map((p) => ({
    fechaPago: attr(p.a, 'FechaPago'),
    formaDePagoP: attr(p.a, 'FormaDePagoP'),
    monedaP: attr(p.a, 'MonedaP').toUpperCase(),
    tipoCambioP: attr(p.a, 'TipoCambioP'),
    monto: attr(p.a, 'Monto'),
    numOperacion: clean(attr(p.a, 'NumOperacion')),
    rfcEmisorCtaOrd: attr(p.a, 'RfcEmisorCtaOrd'),
    ctaOrdenante: attr(p.a, 'CtaOrdenante'),
    ctaBeneficiario: attr(p.a, 'CtaBeneficiario'),
    documentos: p.docs.map((d) => ({
      idDocumento: attr(d, 'IdDocumento'),
      serie: clean(attr(d, 'Serie')),
      folio: clean(attr(d, 'Folio')),
      monedaDR: attr(d, 'MonedaDR'),
      numParcialidad: attr(d, 'NumParcialidad'),
      impSaldoAnt: attr(d, 'ImpSaldoAnt'),
      impPagado: attr(d, 'ImpPagado'),
      impSaldoInsoluto: attr(d, 'ImpSaldoInsoluto'),
    })),
  }));
  if (pagos.length === 0) throw missing('Pagos/Pago');
  // Pagos 2.0 states the MXN total itself; 1.0 (and a 2.0 missing it) adds up Monto × TipoCambioP.
  const declared = raw.pagosVersion === '2.0' ? attr(raw.totales, 'MontoTotalPagos') : '';
  let total: bigint;
  if (declared) total = cents(declared, 'Totales/MontoTotalPagos');
  else total = pagos.reduce((sum, p) => sum + inPesos(p.monto, p.monedaP, p.tipoCambioP, 'Pago/Monto'), 0n);
  return { version: raw.pagosVersion === '2.0' ? '2.0' : '1.0', montoTotalMxn: formatCents(total), pagos };
}

/** An amount of a payment in pesos (TipoCambioP required unless MonedaP is MXN). */
function inPesos(value: string, moneda: string, rate: string, field: string): bigint {
  if (!value) throw missing(field);
  if (!isDecimal(value)) throw invalid(field);
  if (moneda === 'MXN' || moneda === '') return cents(value, field);
  if (!rate) throw missing('Pago/TipoCambioP');
  const c = productCents(value, rate);
  if (c === null) throw invalid('Pago/TipoCambioP');
  return c;
}

function readNomina(raw: Raw): CfdiNomina {
  const n = raw.nomina;
  return {
    version: attr(n, 'Version'),
    tipoNomina: attr(n, 'TipoNomina'),
    fechaPago: attr(n, 'FechaPago'),
    fechaInicialPago: attr(n, 'FechaInicialPago'),
    fechaFinalPago: attr(n, 'FechaFinalPago'),
    numDiasPagados: attr(n, 'NumDiasPagados'),
    totalPercepciones: attr(n, 'TotalPercepciones'),
    totalDeducciones: attr(n, 'TotalDeducciones'),
    totalOtrosPagos: attr(n, 'TotalOtrosPagos'),
    impuestosRetenidos: attr(raw.nominaDeducciones, 'TotalImpuestosRetenidos'),
  };
}

interface TaxTotals {
  trasladados: bigint;
  retenidos: bigint;
}

/** An optional amount in cents (0 when absent). */
function optionalCents(v: string, field: string): bigint {
  return v ? cents(v, field) : 0n;
}

function sumLines(raw: Raw, kind: CfdiTaxLine['kind'], field: string): bigint {
  let sum = 0n;
  for (const t of raw.taxLines) if (!t.local && t.kind === kind && t.importe) sum += cents(t.importe, field);
  return sum;
}

function documentTaxes(raw: Raw, nomina: CfdiNomina | null): TaxTotals {
  const tras = attr2(raw.impuestos, 'TotalImpuestosTrasladados', 'totalImpuestosTrasladados');
  const ret = attr2(raw.impuestos, 'TotalImpuestosRetenidos', 'totalImpuestosRetenidos');
  let trasladados = tras ? cents(tras, 'Impuestos/TotalImpuestosTrasladados') : sumLines(raw, 'traslado', 'Impuestos/Traslado/Importe');
  let retenidos = ret ? cents(ret, 'Impuestos/TotalImpuestosRetenidos') : sumLines(raw, 'retencion', 'Impuestos/Retencion/Importe');
  if (raw.implocal) {
    trasladados += optionalCents(attr(raw.implocal, 'TotaldeTraslados'), 'ImpuestosLocales/TotaldeTraslados');
    retenidos += optionalCents(attr(raw.implocal, 'TotaldeRetenciones'), 'ImpuestosLocales/TotaldeRetenciones');
  }
  if (nomina) retenidos += optionalCents(nomina.impuestosRetenidos, 'Nomina/Deducciones/TotalImpuestosRetenidos');
  return { trasladados, retenidos };
}

const TOTALES_TRASLADOS = ['TotalTrasladosImpuestoIVA16', 'TotalTrasladosImpuestoIVA8', 'TotalTrasladosImpuestoIVA0'];
const TOTALES_RETENCIONES = ['TotalRetencionesIVA', 'TotalRetencionesISR', 'TotalRetencionesIEPS'];

function paymentTaxes(raw: Raw): TaxTotals {
  if (raw.pagosVersion === '2.0') {
    const sum = (names: string[]) => names.reduce((s, n) => s + optionalCents(attr(raw.totales, n), `Totales/${n}`), 0n);
    return { trasladados: sum(TOTALES_TRASLADOS), retenidos: sum(TOTALES_RETENCIONES) };
  }
  let trasladados = 0n;
  let retenidos = 0n;
  for (const p of raw.pagos) {
    if (!p.impuestos) continue;
    const moneda = attr(p.a, 'MonedaP').toUpperCase();
    const rate = attr(p.a, 'TipoCambioP');
    const tras = attr(p.impuestos, 'TotalImpuestosTrasladados');
    const ret = attr(p.impuestos, 'TotalImpuestosRetenidos');
    if (tras) trasladados += inPesos(tras, moneda, rate, 'Pago/Impuestos/TotalImpuestosTrasladados');
    if (ret) retenidos += inPesos(ret, moneda, rate, 'Pago/Impuestos/TotalImpuestosRetenidos');
  }
  return { trasladados, retenidos };
}
