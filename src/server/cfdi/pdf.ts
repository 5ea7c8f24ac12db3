// The printed form of a CFDI ("representación impresa"), for a receipt that came
// without its PDF: issuer, receiver, concepts, taxes, totals, payments or payroll when present, the
// stamp's data with both seals in full, the SAT verification QR, and the legend SAT asks for.
// Letter size, Helvetica (the standard font covers Spanish through WinAnsi), our teal.
//
// The output is a pure function of its input, so it can be cached: the document dates come from
// FechaTimbrado (never the clock), and pdfkit's file ID is derived from those dates and the info.
// The original XML travels inside the PDF as an attached file (AFRelationship Source), so the PDF
// alone is a complete copy of the invoice.
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { mexicoCityInstant } from '../../domain/mexico-time';
import {
  FORMA_PAGO,
  IMPUESTO,
  METODO_PAGO,
  PDF_TXT as T,
  REGIMEN_FISCAL,
  TIPO_COMPROBANTE,
  TITLE,
  USO_CFDI,
} from './pdf-labels';
import type { CfdiData, CfdiTaxLine } from './read';
import { verificationUrl } from './verification-url';

export interface RenderOptions {
  /** Deflate the content streams (default). Tests turn it off to read the text operators. */
  compress?: boolean;
  /** Rows drawn per table before "Y N renglones más" (default MAX_ROWS). */
  maxRows?: number;
}

const PAGE_W = 612; // Letter, in points
const PAGE_H = 792;
const M = 36;
const W = PAGE_W - 2 * M;
const FOOTER_H = 20;
const BOTTOM = PAGE_H - M - FOOTER_H;
/** SAT asks for at least 2.75 cm; 110 pt is about 3.9 cm and leaves room for the stamp's data beside it. */
const QR_SIZE = 110;

const PRIMARY = '#0f766e';
const INK = '#1f2937';
const MUTED = '#6b7280';
const RULE = '#d1d5db';
const TINT = '#f0fdfa';

const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const MONO = 'Courier';

/** Caps on what one field may print: the XSD maxima, so a hostile file cannot make a field pages long. */
const MAX_TEXT = 1000;
const MAX_VALUE = 300;
const MAX_SEAL = 2000;
/** Rows drawn per table (about 60 pages); the rest is counted, and the attached XML has them all. */
export const MAX_ROWS = 2000;
/** More tax lines than this (real CFDI have a handful) and the totals are printed instead. */
const MAX_TAX_LINES = 10;

export async function renderCfdiPdf(xml: Uint8Array, cfdi: CfdiData, options: RenderOptions = {}): Promise<Uint8Array> {
  const stamped = documentDate(cfdi);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: M,
    bufferPages: true,
    compress: options.compress ?? true,
    lang: 'es-MX',
    displayTitle: true,
    info: {
      Title: winAnsi(cap(`${TITLE[cfdi.tipoDeComprobante]} ${[cfdi.serie, cfdi.folio].filter(Boolean).join('-')} · ${cfdi.uuid}`, MAX_VALUE)),
      Author: winAnsi(cap(cfdi.issuer.nombre || cfdi.issuer.rfc, MAX_VALUE)),
      Subject: winAnsi(`CFDI ${cfdi.uuid}`),
      Creator: 'Cuentas Claras',
      Producer: 'Cuentas Claras',
      CreationDate: stamped,
      ModDate: stamped,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  new Layout(doc, cfdi, options.maxRows ?? MAX_ROWS).draw();
  // pdfkit ≥ 0.16 writes AFRelationship from `relationship`; @types/pdfkit does not list it yet.
  const attachment: PDFKit.Mixins.PDFAttachmentOptions & { relationship: string } = {
    name: `${cfdi.uuid}.xml`,
    type: 'application/xml',
    description: 'CFDI',
    relationship: 'Source',
    creationDate: stamped,
    modifiedDate: stamped,
  };
  doc.file(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength), attachment);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** FechaTimbrado (else Fecha) as the instant it names in Mexico City; the epoch when neither parses. */
function documentDate(cfdi: CfdiData): Date {
  for (const s of [cfdi.fechaTimbrado, cfdi.fecha]) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(s);
    if (!m) continue;
    const at = mexicoCityInstant(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
    if (!Number.isNaN(at.getTime())) return at;
  }
  return new Date(0);
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/** Code points the standard fonts' WinAnsi encoding has beyond Latin-1 (pdfkit maps these). */
const WIN_ANSI_EXTRA = new Set([
  0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a,
  0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

/** What Helvetica can print: accents stay, line breaks too; other letters lose their marks (ő → o); the rest becomes '?'. */
export function winAnsi(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(c)) out += ch;
    else if (c === 0x0a) out += ch; // pdfkit breaks the line there
    else if (c === 0x09 || c === 0x0d) out += ' ';
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base.length === 1 && base.charCodeAt(0) < 0x7f && base.charCodeAt(0) >= 0x20 ? base : '?';
    }
  }
  return out;
}

function cap(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** "1234.5" → "1,234.50": thousands grouped, at least two decimals, never a digit dropped. Non-numbers as written. */
export function displayAmount(s: string): string {
  const m = DECIMAL.exec(s.trim());
  if (!s.trim() || !m) return s;
  const [, sign = '', int = '', frac = ''] = m;
  const grouped = (int.replace(/^0+(?=\d)/, '') || '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign === '-' ? '-' : ''}${grouped}.${frac.padEnd(2, '0')}`;
}

const money = (s: string): string => (DECIMAL.test(s.trim()) && s.trim() ? `$${displayAmount(s)}` : s);

/** A rate as a percentage without float noise: "0.160000" → "16", "0.106667" → "10.6667". */
export function ratePercent(rate: string): string {
  const m = DECIMAL.exec(rate.trim());
  if (!rate.trim() || !m) return rate;
  const [, , int = '', frac = ''] = m;
  const f = frac.padEnd(2, '0');
  const whole = `${int}${f.slice(0, 2)}`.replace(/^0+(?=\d)/, '') || '0';
  const rest = f.slice(2).replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : whole;
}

/** "601 · General de Ley Personas Morales", or the code alone when the catalog does not know it. */
const coded = (code: string, names: Record<string, string>): string =>
  code ? (names[code] ? `${code} · ${names[code]}` : code) : T.none;

/** CFDI dates as written, "2025-01-24T10:10:41" → "2025-01-24 10:10:41". */
const when = (s: string): string => (s ? s.replace('T', ' ') : T.none);

function taxName(t: CfdiTaxLine, version: string): string {
  const name = t.local ? t.impuesto : (IMPUESTO[t.impuesto] ?? t.impuesto);
  const what = t.kind === 'traslado' ? T.trasladado : T.retenido;
  if (t.tipoFactor === 'Exento') return `${name} ${T.exento}`;
  if (!t.tasaOCuota) return `${name} ${what}`;
  if (t.tipoFactor === 'Cuota') return `${name} ${what} (cuota ${t.tasaOCuota})`;
  // 3.3/4.0 federal rates are fractions (0.160000); 3.2 and local taxes write percentages (16, 2.50).
  const percent = t.local || version === '3.2' ? trimRate(t.tasaOCuota) : ratePercent(t.tasaOCuota);
  return `${name} ${what} ${percent}%`;
}

/** "2.50" → "2.5", "16" → "16". */
function trimRate(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

const SEAL_SIZE = 6.5;
/** Courier is 0.6 em wide: seals are cut into full lines rather than at pdfkit's '/' and '+' breaks. */
const SEAL_LINE = Math.floor(W / (0.6 * SEAL_SIZE)) - 1;

function fixedLines(s: string): string {
  const lines: string[] = [];
  for (let i = 0; i < s.length; i += SEAL_LINE) lines.push(s.slice(i, i + SEAL_LINE));
  return lines.join('\n');
}

/** SAT's cadena of the TFD, as printed on every representación impresa. */
export function tfdCadena(cfdi: CfdiData): string {
  if (cfdi.tfdVersion === '1.0') return `||1.0|${cfdi.uuidAsWritten}|${cfdi.fechaTimbrado}|${cfdi.selloCfd}|${cfdi.noCertificadoSat}||`;
  const leyenda = cfdi.leyenda ? `${cfdi.leyenda}|` : '';
  return `||${cfdi.tfdVersion || '1.1'}|${cfdi.uuidAsWritten}|${cfdi.fechaTimbrado}|${cfdi.rfcProvCertif}|${leyenda}${cfdi.selloCfd}|${cfdi.noCertificadoSat}||`;
}

// ---------------------------------------------------------------------------------------------
// Layout

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  cell: (i: number) => string;
}

class Layout {
  private y = M;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly cfdi: CfdiData,
    private readonly maxRows: number,
  ) {}

  draw(): void {
    this.header();
    this.parties();
    this.conceptos();
    this.summary();
    if (this.cfdi.pagos) this.pagos();
    if (this.cfdi.nomina) this.nomina();
    this.stamp();
    this.footers();
  }

  // -- primitives

  private font(name: string, size: number, color = INK): this {
    this.doc.font(name).fontSize(size).fillColor(color);
    return this;
  }

  private height(text: string, width: number): number {
    return this.doc.heightOfString(winAnsi(text), { width, lineGap: 1 });
  }

  private put(text: string, x: number, y: number, width: number, align: 'left' | 'right' | 'center' = 'left'): number {
    const t = winAnsi(text);
    this.doc.text(t, x, y, { width, align, lineGap: 1 });
    return this.doc.heightOfString(t, { width, lineGap: 1 });
  }

  private rule(y: number, color = RULE, width = 0.5): void {
    this.doc.save().moveTo(M, y).lineTo(M + W, y).lineWidth(width).strokeColor(color).stroke().restore();
  }

  /** Starts a new page when `needed` points do not fit; returns whether it did. */
  private ensure(needed: number): boolean {
    if (this.y + needed <= BOTTOM) return false;
    this.doc.addPage();
    this.y = M;
    return true;
  }

  private sectionTitle(title: string): void {
    this.ensure(40);
    this.font(BOLD, 8, PRIMARY).put(title.toUpperCase(), M, this.y, W);
    this.y += 12;
  }

  /** Label/value rows in a column; returns the height used. */
  private rows(items: [string, string][], x: number, y: number, width: number, labelWidth: number): number {
    let h = 0;
    for (const [label, value] of items) {
      this.font(REGULAR, 7.5, MUTED);
      const lh = this.put(label, x, y + h + 0.5, labelWidth - 6);
      this.font(REGULAR, 8.5);
      const vh = this.put(cap(value || T.none, MAX_VALUE), x + labelWidth, y + h, width - labelWidth);
      h += Math.max(lh, vh) + 3;
    }
    return h;
  }

  // -- sections

  private header(): void {
    const c = this.cfdi;
    this.font(BOLD, 20, PRIMARY).put(TITLE[c.tipoDeComprobante] ?? 'CFDI', M, M, 250);
    this.font(REGULAR, 8.5, MUTED).put(T.cfdiVersion(c.version, TIPO_COMPROBANTE[c.tipoDeComprobante] ?? c.tipoDeComprobante), M, M + 26, 250);
    const rightW = 280;
    const h = this.rows(
      [
        [T.serieFolio, [c.serie, c.folio].filter(Boolean).join('-')],
        [T.fecha, when(c.fecha)],
        [T.lugar, c.lugarExpedicion],
        [T.uuid, c.uuid],
        [T.fechaTimbrado, when(c.fechaTimbrado)],
      ],
      M + W - rightW,
      M,
      rightW,
      86,
    );
    this.y = Math.max(M + 44, M + h) + 6;
    this.rule(this.y, PRIMARY, 1.5);
    this.y += 12;
  }

  private parties(): void {
    const c = this.cfdi;
    const colW = (W - 20) / 2;
    const party = (title: string, name: string, items: [string, string][], x: number): number => {
      this.font(BOLD, 8, PRIMARY).put(title.toUpperCase(), x, this.y, colW);
      this.font(BOLD, 10);
      const nh = this.put(cap(name || T.none, 300), x, this.y + 12, colW);
      return 12 + nh + 4 + this.rows(items, x, this.y + 12 + nh + 4, colW, 80);
    };
    const receiverRows: [string, string][] = [[T.rfc, c.receiver.rfc]];
    if (c.receiver.usoCfdi) receiverRows.push([T.usoCfdi, coded(c.receiver.usoCfdi, USO_CFDI)]);
    if (c.receiver.domicilio) receiverRows.push([T.domicilio, c.receiver.domicilio]);
    if (c.receiver.regimen) receiverRows.push([T.regimen, coded(c.receiver.regimen, REGIMEN_FISCAL)]);
    if (c.receiver.residenciaFiscal) receiverRows.push([T.residencia, c.receiver.residenciaFiscal]);
    if (c.receiver.numRegIdTrib) receiverRows.push([T.numRegIdTrib, c.receiver.numRegIdTrib]);
    const issuerRows: [string, string][] = [[T.rfc, c.issuer.rfc]];
    if (c.issuer.regimen) issuerRows.push([T.regimen, coded(c.issuer.regimen, REGIMEN_FISCAL)]);
    const left = party(T.issuer, c.issuer.nombre, issuerRows, M);
    const right = party(T.receiver, c.receiver.nombre, receiverRows, M + colW + 20);
    this.y += Math.max(left, right) + 10;
  }

  private conceptos(): void {
    const items = this.cfdi.conceptos;
    const withDiscount = items.some((k) => k.descuento && Number(k.descuento) !== 0);
    const fixed: Column[] = [
      { title: T.colClave, width: 60, align: 'left', cell: (i) => items[i]!.claveProdServ || items[i]!.noIdentificacion },
      { title: T.colCantidad, width: 44, align: 'right', cell: (i) => items[i]!.cantidad },
      {
        title: T.colUnidad,
        width: 64,
        align: 'left',
        cell: (i) => [items[i]!.claveUnidad, items[i]!.unidad].filter(Boolean).join(' · '),
      },
    ];
    const tail: Column[] = [
      { title: T.colValorUnitario, width: 70, align: 'right', cell: (i) => displayAmount(items[i]!.valorUnitario) },
      ...(withDiscount
        ? [{ title: T.colDescuento, width: 58, align: 'right' as const, cell: (i: number) => (items[i]!.descuento ? displayAmount(items[i]!.descuento) : '') }]
        : []),
      { title: T.colImporte, width: 72, align: 'right', cell: (i) => displayAmount(items[i]!.importe) },
    ];
    const used = [...fixed, ...tail].reduce((s, col) => s + col.width, 0);
    const columns: Column[] = [
      ...fixed,
      { title: T.colDescripcion, width: W - used, align: 'left', cell: (i) => cap(items[i]!.descripcion, MAX_TEXT) },
      ...tail,
    ];
    this.sectionTitle(T.conceptos);
    this.table(columns, items.length);
    this.y += 8;
  }

  private table(columns: Column[], rows: number): void {
    this.tableHeader(columns);
    const shown = Math.min(rows, this.maxRows);
    for (let i = 0; i < shown; i++) this.tableRow(columns, i);
    if (rows > shown) {
      this.ensure(14);
      this.font(REGULAR, 8, MUTED).put(T.moreRows(rows - shown), M, this.y + 3, W);
      this.y += 14;
    }
  }

  private tableHeader(columns: Column[]): void {
    this.font(BOLD, 7.5, PRIMARY);
    const h = Math.max(...columns.map((col) => this.height(col.title, col.width - 6))) + 7;
    this.ensure(h + 20);
    this.doc.save().rect(M, this.y, W, h).fill(TINT).restore();
    this.font(BOLD, 7.5, PRIMARY);
    let x = M;
    for (const col of columns) {
      this.put(col.title, x + 3, this.y + 4, col.width - 6, col.align);
      x += col.width;
    }
    this.y += h + 2;
  }

  private tableRow(columns: Column[], i: number): void {
    this.font(REGULAR, 8);
    const h = Math.max(...columns.map((col) => this.height(col.cell(i), col.width - 6))) + 5;
    if (this.ensure(h)) this.tableHeader(columns);
    this.font(REGULAR, 8);
    let x = M;
    for (const col of columns) {
      this.put(col.cell(i), x + 3, this.y + 2, col.width - 6, col.align);
      x += col.width;
    }
    this.y += h;
    this.rule(this.y);
  }

  private summary(): void {
    const c = this.cfdi;
    const left: [string, string][] = [
      [T.metodoPago, coded(c.metodoPago, METODO_PAGO)],
      [T.formaPago, coded(c.formaPago, FORMA_PAGO)],
    ];
    if (c.condicionesDePago) left.push([T.condiciones, cap(c.condicionesDePago, 300)]);
    if (c.numCtaPago) left.push([T.numCta, c.numCtaPago]);
    left.push([T.moneda, c.moneda]);
    if (c.tipoCambio) left.push([T.tipoCambio, c.tipoCambio]);

    const right: [string, string][] = [[T.subTotal, money(c.subTotal)]];
    if (c.descuento && Number(c.descuento) !== 0) right.push([T.descuento, `-${money(c.descuento)}`]);
    if (c.taxLines.length > 0 && c.taxLines.length <= MAX_TAX_LINES) {
      const ordered = [...c.taxLines.filter((t) => t.kind === 'traslado'), ...c.taxLines.filter((t) => t.kind === 'retencion')];
      for (const t of ordered) {
        const value = t.importe ? money(t.importe) : T.none;
        right.push([taxName(t, c.version), t.kind === 'retencion' && t.importe ? `-${value}` : value]);
      }
    } else if (c.tipoDeComprobante !== 'P' && c.tipoDeComprobante !== 'N') {
      // No lines (or too many to list): the totals.
      if (c.trasladados !== '0.00') right.push([T.impuestosTrasladados, money(c.trasladados)]);
      if (c.retenidos !== '0.00') right.push([T.impuestosRetenidos, `-${money(c.retenidos)}`]);
    }

    const estimate = Math.max(left.length, right.length + 2) * 14 + 20;
    this.ensure(estimate);
    const colW = (W - 20) / 2;
    const lh = this.rows(left, M, this.y, colW, 90);
    const rx = M + colW + 20;
    let rh = 0;
    for (const [label, value] of right) {
      this.font(REGULAR, 8.5, MUTED);
      const a = this.put(label, rx, this.y + rh, colW - 100);
      this.font(REGULAR, 8.5);
      const b = this.put(value, rx + colW - 100, this.y + rh, 100, 'right');
      rh += Math.max(a, b) + 3;
    }
    this.doc
      .save()
      .moveTo(rx, this.y + rh + 1)
      .lineTo(rx + colW, this.y + rh + 1)
      .lineWidth(0.75)
      .strokeColor(PRIMARY)
      .stroke()
      .restore();
    rh += 5;
    this.font(BOLD, 11);
    this.put(T.total, rx, this.y + rh, colW - 130);
    this.put(cap(`${money(c.total)} ${c.moneda}`, 40), rx + colW - 130, this.y + rh, 130, 'right');
    rh += 16;
    if (c.moneda !== 'MXN' && c.moneda !== 'XXX') {
      this.font(REGULAR, 8.5, MUTED).put(T.totalMxn, rx, this.y + rh, colW - 110);
      this.font(REGULAR, 8.5).put(money(c.amountMxn), rx + colW - 110, this.y + rh, 110, 'right');
      rh += 14;
    }
    this.y += Math.max(lh, rh) + 12;
  }

  private pagos(): void {
    const p = this.cfdi.pagos!;
    const list = p.pagos;
    const columns: Column[] = [
      { title: T.colFechaPago, width: 80, align: 'left', cell: (i) => when(list[i]!.fechaPago) },
      { title: T.colFormaPago, width: 92, align: 'left', cell: (i) => coded(list[i]!.formaDePagoP, FORMA_PAGO) },
      { title: T.colMonedaP, width: 44, align: 'left', cell: (i) => list[i]!.monedaP },
      { title: T.colTipoCambioP, width: 58, align: 'right', cell: (i) => list[i]!.tipoCambioP },
      { title: T.colMonto, width: 70, align: 'right', cell: (i) => displayAmount(list[i]!.monto) },
      {
        title: T.colDocumentos,
        width: W - 344,
        align: 'left',
        cell: (i) =>
          cap(
            list[i]!.documentos
              .map((d) => `${d.idDocumento}${d.numParcialidad ? ` (${T.parcialidad} ${d.numParcialidad})` : ''} ${T.pagado} ${displayAmount(d.impPagado)}`)
              .join('\n'),
            MAX_TEXT,
          ),
      },
    ];
    this.sectionTitle(T.pagos);
    this.table(columns, list.length);
    this.y += 4;
    this.ensure(16);
    this.font(BOLD, 9).put(`${T.totalPagos}: ${money(p.montoTotalMxn)}`, M, this.y, W, 'right');
    this.y += 20;
  }

  private nomina(): void {
    const n = this.cfdi.nomina!;
    this.sectionTitle(T.nomina);
    const items: [string, string][] = [
      [T.periodo, n.fechaInicialPago && n.fechaFinalPago ? `${n.fechaInicialPago} a ${n.fechaFinalPago}` : T.none],
      [T.fechaPagoNomina, n.fechaPago],
      [T.diasPagados, n.numDiasPagados],
      [T.percepciones, money(n.totalPercepciones)],
      [T.deducciones, money(n.totalDeducciones)],
    ];
    if (n.totalOtrosPagos) items.push([T.otrosPagos, money(n.totalOtrosPagos)]);
    if (n.impuestosRetenidos) items.push([T.isrRetenido, money(n.impuestosRetenidos)]);
    this.ensure(Math.ceil(items.length / 2) * 14);
    const half = Math.ceil(items.length / 2);
    const colW = (W - 20) / 2;
    const left = this.rows(items.slice(0, half), M, this.y, colW, 90);
    const right = this.rows(items.slice(half), M + colW + 20, this.y, colW, 90);
    this.y += Math.max(left, right) + 10;
  }

  private stamp(): void {
    const c = this.cfdi;
    const infoX = M + QR_SIZE + 16;
    const infoW = W - QR_SIZE - 16;
    const seals: [string, string][] = [
      [T.sello, fixedLines(cap(c.sello, MAX_SEAL))],
      [T.selloSat, fixedLines(cap(c.selloSat, MAX_SEAL))],
      [T.cadenaTfd, fixedLines(cap(tfdCadena(c), MAX_SEAL * 2))],
    ];
    this.font(MONO, SEAL_SIZE);
    const sealsH = seals.reduce((s, [, v]) => s + 10 + this.height(v || T.none, W), 0);
    const needed = Math.max(QR_SIZE, 80) + 12 + sealsH + 20;
    if (this.y + needed > BOTTOM) {
      this.doc.addPage();
      this.y = M;
    }
    this.rule(this.y, PRIMARY, 1);
    this.y += 10;
    const top = this.y;
    this.qr(verificationUrl(c), M, top, QR_SIZE);
    const infoH = this.rows(
      [
        [T.uuid, c.uuid],
        [T.noCertificado, c.noCertificado],
        [T.noCertificadoSat, c.noCertificadoSat],
        [T.rfcProvCertif, c.rfcProvCertif],
        [T.fechaTimbrado, when(c.fechaTimbrado)],
      ],
      infoX,
      top,
      infoW,
      150,
    );
    this.font(BOLD, 8.5, PRIMARY).put(T.legend, infoX, top + infoH + 8, infoW);
    this.y = top + Math.max(QR_SIZE, infoH + 24) + 10;
    for (const [label, value] of seals) {
      this.font(BOLD, 7, MUTED).put(label, M, this.y, W);
      this.y += 10;
      this.font(MONO, SEAL_SIZE);
      this.y += this.put(value || T.none, M, this.y, W) + 4;
    }
  }

  /**
   * The QR as vector squares (no bitmap): one unit per module inside a scaled group, dark modules
   * merged into horizontal runs, so the content stream holds "col row length 1 re" per run.
   */
  private qr(text: string, x: number, y: number, size: number): void {
    const modules = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
    const n = modules.size;
    const unit = size / n;
    const doc = this.doc;
    doc.save();
    doc.translate(x, y).scale(unit);
    for (let row = 0; row < n; row++) {
      let col = 0;
      while (col < n) {
        if (!modules.get(row, col)) {
          col++;
          continue;
        }
        const start = col;
        while (col < n && modules.get(row, col)) col++;
        doc.rect(start, row, col - start, 1);
      }
    }
    doc.fill('#000000');
    doc.restore();
  }

  private footers(): void {
    const range = this.doc.bufferedPageRange();
    for (let i = 0; i < range.count; i++) {
      this.doc.switchToPage(range.start + i);
      const y = PAGE_H - M - FOOTER_H + 8;
      // Writing below the bottom margin would make pdfkit add a page: lift it for the footer.
      const margins = this.doc.page.margins;
      const bottom = margins.bottom;
      margins.bottom = 0;
      this.rule(y, RULE);
      this.font(REGULAR, 7, MUTED);
      this.put(T.legend, M, y + 5, W - 80);
      this.put(T.page(i + 1, range.count), M + W - 80, y + 5, 80, 'right');
      margins.bottom = bottom;
    }
  }
}
