import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { PDF_TXT } from '../../../src/server/cfdi/pdf-labels';
import { displayAmount, ratePercent, renderCfdiPdf, tfdCadena, winAnsi } from '../../../src/server/cfdi/pdf';
import { readCfdi, type CfdiData } from '../../../src/server/cfdi/read';
import { verificationUrl } from '../../../src/server/cfdi/verification-url';

const FIXTURES = fileURLToPath(new URL('../../fixtures/cfdi', import.meta.url));
const bytes = (name: string) => new Uint8Array(readFileSync(resolve(FIXTURES, name)));

function fixture(name: string): { xml: Uint8Array; cfdi: CfdiData } {
  const xml = bytes(name);
  const r = readCfdi(xml);
  if (!r.ok) throw new Error(`${name}: ${r.reason}`);
  return { xml, cfdi: r.cfdi };
}

const latin1 = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1');

/** WinAnsi bytes 0x80–0x9F that differ from Latin-1 (the ones a CFDI PDF may use). */
const WIN_ANSI: Record<number, string> = { 0x80: '€', 0x85: '…', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—' };

/** The text of every TJ operator (pdfkit writes hex strings with kerning numbers between), one line each. */
function pdfText(pdf: Uint8Array): string[] {
  const lines: string[] = [];
  for (const m of latin1(pdf).matchAll(/\[([^\]]*)\] TJ/g)) {
    let line = '';
    for (const hex of m[1]!.matchAll(/<([0-9a-f]*)>/gi)) {
      for (let i = 0; i < hex[1]!.length; i += 2) {
        const b = parseInt(hex[1]!.slice(i, i + 2), 16);
        line += WIN_ANSI[b] ?? String.fromCharCode(b);
      }
    }
    lines.push(line);
  }
  return lines;
}

function pages(pdf: Uint8Array): { objects: number; count: number } {
  const s = latin1(pdf);
  return { objects: s.match(/\/Type \/Page\n/g)?.length ?? 0, count: Number(/\/Type \/Pages\n\/Count (\d+)/.exec(s)?.[1] ?? -1) };
}

/** The QR as drawn: the runs "col row length 1 re" inside the group scaled to one unit per module. */
function drawnQr(pdf: Uint8Array): boolean[][] {
  const m = /(\d+(?:\.\d+)?) 0 0 \1 0 0 cm\n((?:\d+ \d+ \d+ 1 re\n)+)/.exec(latin1(pdf));
  if (!m) throw new Error('no QR found');
  const runs = [...m[2]!.matchAll(/(\d+) (\d+) (\d+) 1 re/g)].map((r) => r.slice(1).map(Number) as [number, number, number]);
  const size = Math.max(...runs.map(([c, , len]) => c + len), ...runs.map(([, r]) => r + 1));
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [col, row, len] of runs) for (let c = col; c < col + len; c++) grid[row]![c] = true;
  return grid;
}

function qrMatrix(text: string): boolean[][] {
  const modules = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  return Array.from({ length: modules.size }, (_, r) => Array.from({ length: modules.size }, (_, c) => Boolean(modules.get(r, c))));
}

describe('the rendered CFDI PDF', () => {
  it('is a valid one-page Letter PDF carrying the invoice', async () => {
    const { xml, cfdi } = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    const pdf = await renderCfdiPdf(xml, cfdi, { compress: false });
    const s = latin1(pdf);
    expect(s.startsWith('%PDF-1.')).toBe(true);
    expect(s.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(s).toMatch(/\/MediaBox \[0 0 612 792\]/);
    expect(pages(pdf)).toEqual({ objects: 1, count: 1 });

    const lines = pdfText(pdf);
    const text = lines.join('\n');
    for (const expected of [
      'Factura',
      'CFDI 4.0 · Ingreso',
      'O-52375239',
      '2025-01-24 10:10:41',
      'C2832671-DA6D-11EF-A83D-00155D012007',
      'PASE, SERVICIOS ELECTRONICOS',
      'ISD950921HE5',
      '601 · General de Ley Personas Morales',
      'CARLOS CORTES SOTO',
      'COSC8001137NA',
      'G03 · Gastos en general',
      'COMISION RECARGA IDMX',
      '853.448276',
      'IVA trasladado 16%',
      '$137.93',
      '$862.07',
      '$1,000.00 MXN',
      'PUE · Pago en una sola exhibición',
      '04 · Tarjeta de crédito',
      '00001000000510877575',
      '00001000000708361114',
      'TBN040609RKA',
      PDF_TXT.legend,
      PDF_TXT.page(1, 1),
    ]) {
      expect(text, expected).toContain(expected);
    }
    // Seals in full (cut into fixed-width lines) and the TFD's cadena.
    const joined = lines.join('');
    expect(joined).toContain(cfdi.sello);
    expect(joined).toContain(cfdi.selloSat);
    expect(joined).toContain(tfdCadena(cfdi));
    // The XML rides along, byte for byte.
    expect(s).toContain('/AFRelationship /Source');
    expect(s).toContain(latin1(xml));
  });

  it('draws the QR of SAT verification URL', async () => {
    const { xml, cfdi } = fixture('cfdi33-ingreso-real-implocal-stamped.xml');
    const url = verificationUrl(cfdi);
    // The example of the cfdi-expresiones README and of the facts brief.
    expect(url).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC&re=POT9207213D6&rr=DIM8701081LA&tt=2010.01&fe=/OAgdg==',
    );
    const drawn = drawnQr(await renderCfdiPdf(xml, cfdi, { compress: false }));
    expect(drawn).toEqual(qrMatrix(url));
    expect(drawn).not.toEqual(qrMatrix(url.replace('tt=2010.01', 'tt=2010.02')));
  });

  it('is the same bytes for the same input, dated by the stamp (Mexico City time)', async () => {
    const { xml, cfdi } = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    const a = await renderCfdiPdf(xml, cfdi);
    const b = await renderCfdiPdf(xml, structuredClone(cfdi));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const plain = latin1(await renderCfdiPdf(xml, cfdi, { compress: false }));
    // FechaTimbrado 2025-01-24T10:10:42 at UTC-6.
    expect(plain).toContain('/CreationDate (D:20250124161042Z)');
    expect(plain).toContain('/ModDate (D:20250124161042Z)');
    const later = await renderCfdiPdf(xml, { ...cfdi, fechaTimbrado: '2025-01-24T10:10:43' });
    expect(Buffer.from(later).equals(Buffer.from(a))).toBe(false);
  });

  it('prints Spanish as it is (ñ, á, é, ü) and survives what Helvetica cannot print', async () => {
    const { xml, cfdi } = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    const pdf = await renderCfdiPdf(
      xml,
      {
        ...cfdi,
        issuer: { ...cfdi.issuer, nombre: 'ÑANDÚ GÜEMES Y ÁVILA, S.A. DE C.V.' },
        receiver: { ...cfdi.receiver, nombre: 'José María Peña Müller' },
        conceptos: [{ ...cfdi.conceptos[0]!, descripcion: 'Café 😀 中文 año' }],
      },
      { compress: false },
    );
    const text = pdfText(pdf).join('\n');
    expect(text).toContain('ÑANDÚ GÜEMES Y ÁVILA, S.A. DE C.V.');
    expect(text).toContain('José María Peña Müller');
    expect(text).toContain('Café ? ?? año');
  });

  it('breaks long tables over pages, header repeated, every page numbered', async () => {
    const { xml, cfdi } = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    const conceptos = Array.from({ length: 150 }, (_, i) => ({
      ...cfdi.conceptos[i % 2]!,
      descripcion: `Concepto ${i + 1}: ${'una descripción larga que ocupa varias líneas de la columna '.repeat(1 + (i % 3))}`,
    }));
    const pdf = await renderCfdiPdf(xml, { ...cfdi, conceptos }, { compress: false });
    const { objects, count } = pages(pdf);
    expect(count).toBeGreaterThan(3);
    expect(objects).toBe(count);
    const lines = pdfText(pdf);
    for (let p = 1; p <= count; p++) expect(lines).toContain(PDF_TXT.page(p, count));
    expect(lines.filter((l) => l === PDF_TXT.colDescripcion).length).toBeGreaterThanOrEqual(count - 1);
    const text = lines.join('\n');
    for (let i = 1; i <= 150; i++) expect(text).toContain(`Concepto ${i}:`);
  });

  it('stops drawing rows at maxRows and says how many more there are', async () => {
    const { xml, cfdi } = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    const conceptos = Array.from({ length: 30 }, (_, i) => ({ ...cfdi.conceptos[0]!, descripcion: `Renglón ${i + 1}` }));
    const lines = pdfText(await renderCfdiPdf(xml, { ...cfdi, conceptos }, { compress: false, maxRows: 25 }));
    expect(lines).toContain('Renglón 25');
    expect(lines).not.toContain('Renglón 26');
    expect(lines.join(' ')).toContain(PDF_TXT.moreRows(5));
  });

  it('shows payments for a Pagos CFDI and the payroll for a Nómina', async () => {
    const pago = fixture('cfdi40-pago20-iva16-simulated-tfd.xml');
    const pagoText = pdfText(await renderCfdiPdf(pago.xml, pago.cfdi, { compress: false })).join('\n');
    for (const s of ['Recibo de pago', 'PAGOS RECIBIDOS', '6d7434a6-e3f2-47ad-9e4c-08849946afa0', '17,852.75', `${PDF_TXT.totalPagos}: $17,852.75`, 'HERRERIA & ELECTRICOS S DE CV']) {
      expect(pagoText, s).toContain(s);
    }
    const nomina = fixture('cfdi40-nomina12-sw-stamped.xml');
    const nominaText = pdfText(await renderCfdiPdf(nomina.xml, nomina.cfdi, { compress: false })).join('\n');
    for (const s of ['Recibo de nómina', 'NÓMINA', '2023-05-09 a 2023-05-24', '$5,000.00', '$300.00', '$4,700.00 MXN', 'CN01 · Nómina']) {
      expect(nominaText, s).toContain(s);
    }
  });

  it('shows a foreign-currency total in pesos too', async () => {
    const edge = fixture('edge-cfdi40-multiple-tfd-addenda-random-values.xml');
    const text = pdfText(await renderCfdiPdf(edge.xml, edge.cfdi, { compress: false })).join('\n');
    expect(text).toContain('$6,078,640.234906 IRR');
    expect(text).toContain(PDF_TXT.totalMxn);
    expect(text).toContain('$14,458,594,304,260.20');
  });

  it('renders every accepted fixture', async () => {
    let rendered = 0;
    for (const name of readdirSync(FIXTURES).filter((f) => f.endsWith('.xml') && !f.startsWith('ours-'))) {
      const xml = bytes(name);
      const r = readCfdi(xml);
      if (!r.ok) continue;
      const pdf = await renderCfdiPdf(xml, r.cfdi, { compress: false });
      expect(pages(pdf).count, name).toBeGreaterThanOrEqual(1);
      expect(pdfText(pdf).join('\n'), name).toContain(r.cfdi.uuid);
      expect(drawnQr(pdf), name).toEqual(qrMatrix(verificationUrl(r.cfdi)));
      rendered++;
    }
    // The public fixtures that read (the nómina demo's all-zero UUID is refused).
    expect(rendered).toBe(19);
  });
});

describe('PDF text helpers', () => {
  it('formats amounts exactly: grouped, at least two decimals, none dropped', () => {
    expect(displayAmount('1000')).toBe('1,000.00');
    expect(displayAmount('6.9')).toBe('6.90');
    expect(displayAmount('853.448276')).toBe('853.448276');
    expect(displayAmount('-1234567.5')).toBe('-1,234,567.50');
    expect(displayAmount('0007.10')).toBe('7.10');
    expect(displayAmount('abc')).toBe('abc');
  });

  it('turns rates into percentages without float noise', () => {
    expect(ratePercent('0.160000')).toBe('16');
    expect(ratePercent('0.106667')).toBe('10.6667');
    expect(ratePercent('0.08')).toBe('8');
    expect(ratePercent('0')).toBe('0');
    expect(ratePercent('1.600000')).toBe('160');
  });

  it('keeps what WinAnsi has and replaces the rest', () => {
    expect(winAnsi('Ñandú · “€” — ok')).toBe('Ñandú · “€” — ok');
    expect(winAnsi('Łódź ő 😀 中')).toBe('?ódz o ? ?'); // Ł has no base letter to fall back to
    expect(winAnsi('a\tb\nc\u0000d\re')).toBe('a b\nc?d e');
  });

  it('builds the TFD cadena SAT prints (1.1 and 1.0)', () => {
    const { cfdi } = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    expect(tfdCadena(cfdi)).toBe(`||1.1|C2832671-DA6D-11EF-A83D-00155D012007|2025-01-24T10:10:42|TBN040609RKA|${cfdi.selloCfd}|00001000000708361114||`);
    const old = fixture('cfdi32-ingreso-real-legacy-stamped.xml').cfdi;
    expect(tfdCadena(old)).toBe(`||1.0|80824F3B-323E-407B-8F8E-40D83FE2E69F|2017-03-21T08:18:08|${old.selloCfd}|00001000000404477432||`);
  });
});
