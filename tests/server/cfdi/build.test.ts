// The CFDI 4.0 builder: SAT's XSD accepts what it writes (xmllint, with a catCFDI.xsd stand-in made
// from tests/fixtures/catalogs, since SAT's catalog schema is not in the mirror; ClaveProdServ,
// CodigoPostal and Pais are shape-checked only, their catalogs are missing), attribute order is the
// XSD's, and the amounts follow SAT's rounding rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { afterAll, describe, expect, it } from 'vitest';
import {
  baseFromGross, buildCfdi, cfdiAmounts, CfdiBuildError, IVA_0, IVA_16, IVA_8, IVA_EXENTO,
  type CfdiInput, type ConceptoInput,
} from '../../../src/server/cfdi/build';
import { parseSatXml } from '../../../src/server/cfdi/cadena';
import { mexicoCityDateTime } from '../../../src/domain/mexico-time';
import { issueSandboxCfdi } from '../../../src/server/cfdi/issue';
import { openTestCsd, sealCfdi } from '../../../src/server/cfdi/seal';
import { fixture, SAT_XML, sampleInput, validateCfdi40, removeScratch } from './sat-tools';

afterAll(removeScratch);

const csd = openTestCsd('EKU9003173C9');
const cert = { noCertificado: csd.noCertificado, certificado: csd.certificado };
const concepto = (over: Partial<ConceptoInput>): ConceptoInput => ({
  claveProdServ: '01010101', cantidad: '1', claveUnidad: 'ACT', descripcion: 'Venta', valorUnitario: '100.00',
  objetoImp: '02', traslados: [IVA_16], ...over,
});
const withConceptos = (...conceptos: ConceptoInput[]) => sampleInput({ conceptos });

/** Element path ("Comprobante/Conceptos/Concepto") → attribute names in cfdv40.xsd's order, read from the XSD. */
function xsdAttributeOrder(): Map<string, string[]> {
  const xsd = new DOMParser().parseFromString(readFileSync(join(SAT_XML, 'sitio_internet/cfd/4/cfdv40.xsd'), 'utf8'), 'text/xml');
  const order = new Map<string, string[]>();
  for (const el of Array.from(xsd.getElementsByTagName('xs:element'))) {
    const type = Array.from(el.childNodes).find((n) => n.nodeName === 'xs:complexType') as Element | undefined;
    if (!type) continue;
    const names: string[] = [];
    for (let n: Element | null = el; n; n = n.parentNode as Element | null) if (n.nodeName === 'xs:element') names.unshift(n.getAttribute('name')!);
    order.set(names.join('/'), Array.from(type.childNodes).filter((n) => n.nodeName === 'xs:attribute').map((n) => (n as Element).getAttribute('name')!));
  }
  return order;
}

/** The same path for an element of a CFDI. */
function docPath(el: Element): string {
  const names: string[] = [];
  for (let n: Element | null = el; n && n.nodeType === n.ELEMENT_NODE; n = n.parentNode as Element | null) names.unshift(n.localName!);
  return names.join('/');
}

describe('SAT\'s XSD accepts what we build', () => {
  it('the stand-in catalog schema accepts real CFDI 4.0 and refuses an unknown code', () => {
    const real = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    expect(validateCfdi40(real, 'real.xml')).toMatchObject({ valid: true });
    const bad = validateCfdi40(real.replace('UsoCFDI="G03"', 'UsoCFDI="G99"'), 'bad-uso.xml');
    expect(bad.valid).toBe(false);
    expect(bad.errors).toContain('UsoCFDI');
  });

  const cases: [string, CfdiInput][] = [
    ['a ticket with IVA 16 %', sampleInput()],
    ['no Serie/Folio, IVA 8 %, 0 % and exento, descuentos', sampleInput({ serie: undefined, folio: undefined, conceptos: [
      concepto({ traslados: [IVA_8], descuento: '10.00', noIdentificacion: 'A-1', unidad: 'Servicio' }),
      concepto({ traslados: [IVA_0], cantidad: '0.5' }),
      concepto({ traslados: [IVA_EXENTO], valorUnitario: '33.333333', cantidad: '3' }),
    ] })],
    ['honorarios with ISR and IVA retenciones, PPD', sampleInput({ formaPago: '99', metodoPago: 'PPD', conceptos: [
      concepto({ retenciones: [{ impuesto: '001', tipoFactor: 'Tasa', tasaOCuota: '0.100000' }, { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.106667' }] }),
    ] })],
    ['USD with TipoCambio', sampleInput({ moneda: 'USD', tipoCambio: '17.2345' })],
    ['only objeto 01 (no Impuestos node)', withConceptos(concepto({ objetoImp: '01', traslados: undefined }))],
    ['factura global to PUBLICO EN GENERAL', sampleInput({
      informacionGlobal: { periodicidad: '01', meses: '05', anio: 2026 },
      receptor: { rfc: 'XAXX010101000', nombre: 'PUBLICO EN GENERAL', domicilioFiscalReceptor: '42501', regimenFiscalReceptor: '616', usoCfdi: 'S01' },
      conceptos: [concepto({ noIdentificacion: 'TK-1' }), concepto({ noIdentificacion: 'TK-2', valorUnitario: '58.62' })],
    })],
    ['egreso related to an ingreso', sampleInput({
      tipoDeComprobante: 'E', cfdiRelacionados: [{ tipoRelacion: '01', uuids: ['C2832671-DA6D-11EF-A83D-00155D012007'] }],
      conceptos: [concepto({ claveProdServ: '84111506', claveUnidad: 'ACT', descripcion: 'Devolución' })],
    })],
  ];

  it.each(cases)('%s: sealed and stamped', async (_name, input) => {
    const { xml: sealed } = sealCfdi(input, csd);
    expect(validateCfdi40(sealed, 'sealed.xml')).toEqual({ valid: true, errors: expect.any(String) });
    const { xml: stamped } = await issueSandboxCfdi(input, csd);
    const r = validateCfdi40(stamped, 'stamped.xml');
    expect(r.errors).not.toContain('fails to validate');
    expect(r.valid).toBe(true);
  });

  it('writes attributes in the XSD\'s order, namespaces and schemaLocation as real 4.0 CFDI do', () => {
    const order = xsdAttributeOrder();
    const xml = sealCfdi(cases[2]![1], csd).xml;
    const doc = parseSatXml(xml);
    const root = doc.documentElement!;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd" Version="4.0"')).toBe(true);
    let checked = 0;
    for (const el of [root, ...Array.from(root.getElementsByTagName('*'))]) {
      const expected = order.get(docPath(el));
      const names = Array.from(el.attributes).map((a) => a.name).filter((n) => !n.startsWith('xmlns') && !n.startsWith('xsi:'));
      if (!expected || names.length === 0) continue;
      const positions = names.map((n) => expected.indexOf(n));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('omits absent optionals and escapes text', () => {
    const xml = buildCfdi(withConceptos(concepto({ descripcion: ' Tornillos  <M3> & "tuercas" ' })), cert);
    expect(xml).not.toMatch(/\b(Descuento|TipoCambio|Confirmacion|CondicionesDePago|FacAtrAdquirente|ResidenciaFiscal|NumRegIdTrib|Unidad)=/);
    expect(xml.match(/="[^"]*"/g)!.filter((a) => a === '=""')).toEqual(['=""']); // only the Sello, filled in by sealing
    expect(xml).toContain('Descripcion="Tornillos &lt;M3&gt; &amp; &quot;tuercas&quot;"');
    expect(xml).toContain('Sello=""');
  });
});

describe('amounts and SAT rounding', () => {
  it('Importe = Cantidad × ValorUnitario rounded half up, in exact decimals (no float drift)', () => {
    expect(cfdiAmounts(withConceptos(concepto({ cantidad: '3', valorUnitario: '0.335', objetoImp: '01', traslados: undefined }))).subTotal).toBe('1.01');
    expect(cfdiAmounts(withConceptos(concepto({ cantidad: '1', valorUnitario: '0.125', objetoImp: '01', traslados: undefined }))).subTotal).toBe('0.13');
    expect(cfdiAmounts(withConceptos(concepto({ cantidad: 3, valorUnitario: 33.33 }))).total).toBe('115.99'); // 99.99 + 16.00 (15.9984)
  });

  it('each concepto\'s tax is rounded, and the summary adds the rounded amounts (CFDI40221)', () => {
    const a = cfdiAmounts(withConceptos(concepto({ valorUnitario: '0.10' }), concepto({ valorUnitario: '0.10' })));
    expect(a.traslados).toEqual([{ base: '0.20', impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', importe: '0.04' }]);
    expect(a.totalImpuestosTrasladados).toBe('0.04');
    expect(a.total).toBe('0.24');
  });

  it('groups traslados by impuesto, factor and tasa; retenciones by impuesto only (CFDI40208)', () => {
    const isr = { impuesto: '001' as const, tipoFactor: 'Tasa' as const, tasaOCuota: '0.100000' };
    const ivaRet = { impuesto: '002' as const, tipoFactor: 'Tasa' as const, tasaOCuota: '0.106667' };
    const a = cfdiAmounts(withConceptos(
      concepto({ valorUnitario: '1250.30', retenciones: [isr, ivaRet] }),
      concepto({ valorUnitario: '100.00', traslados: [IVA_8], retenciones: [isr, { ...ivaRet, tasaOCuota: '0.040000' }] }),
      concepto({ valorUnitario: '50.00', traslados: [IVA_16] }),
    ));
    expect(a.traslados).toEqual([
      { base: '1300.30', impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', importe: '208.05' }, // 200.05 + 8.00
      { base: '100.00', impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.080000', importe: '8.00' },
    ]);
    expect(a.retenciones).toEqual([{ impuesto: '001', importe: '135.03' }, { impuesto: '002', importe: '137.37' }]);
    expect(a).toMatchObject({ subTotal: '1400.30', totalImpuestosTrasladados: '216.05', totalImpuestosRetenidos: '272.40', total: '1343.95' });
  });

  it('exento only: Traslado with Base, no TotalImpuestosTrasladados (CFDI40212/40213)', () => {
    const a = cfdiAmounts(withConceptos(concepto({ traslados: [IVA_EXENTO] })));
    expect(a.traslados).toEqual([{ base: '100.00', impuesto: '002', tipoFactor: 'Exento', tasaOCuota: undefined, importe: undefined }]);
    expect(a.totalImpuestosTrasladados).toBeUndefined();
    expect(a.total).toBe('100.00');
    const xml = buildCfdi(withConceptos(concepto({ traslados: [IVA_EXENTO] })), cert);
    expect(xml).toContain('<cfdi:Impuestos>');
    expect(xml).toContain('<cfdi:Traslado Base="100.00" Impuesto="002" TipoFactor="Exento"/>');
  });

  it('Descuento: on the comprobante only when a concepto has one, and the tax base is Importe − Descuento', () => {
    expect(cfdiAmounts(sampleInput()).descuento).toBeUndefined();
    const a = cfdiAmounts(withConceptos(concepto({ descuento: '10' }), concepto({})));
    expect(a).toMatchObject({ subTotal: '200.00', descuento: '10.00', totalImpuestosTrasladados: '30.40', total: '220.40' });
  });

  it('uses the currency\'s decimals and TipoCambio rules', () => {
    expect(cfdiAmounts(sampleInput({ moneda: 'JPY', tipoCambio: '0.1150', conceptos: [concepto({ valorUnitario: '1234' })] })))
      .toMatchObject({ subTotal: '1234', totalImpuestosTrasladados: '197', total: '1431' });
    expect(buildCfdi(sampleInput({ moneda: 'USD', tipoCambio: 17.2345 }), cert)).toContain('Moneda="USD" TipoCambio="17.2345"');
    expect(buildCfdi(sampleInput({ tipoCambio: '1' }), cert)).toContain('Moneda="MXN" TipoCambio="1"');
    expect(() => buildCfdi(sampleInput({ moneda: 'USD' }), cert)).toThrow(/CFDI40115/);
    expect(() => buildCfdi(sampleInput({ tipoCambio: '17.5' }), cert)).toThrow(/CFDI40114/);
  });

  it('splits a tax-included ticket total into a base that gives the total back', () => {
    expect(baseFromGross('116.00', '0.16')).toBe('100.00');
    expect(baseFromGross('115.00', '0.16')).toBe('99.14');
    expect(baseFromGross(10, '0.16')).toBe('8.62');
    for (const gross of ['0.01', '1.00', '17.39', '86.20', '999.99', '1234.56']) {
      const base = baseFromGross(gross, '0.160000');
      const a = cfdiAmounts(withConceptos(concepto({ valorUnitario: base })));
      expect(Math.abs(Number(a.total) - Number(gross))).toBeLessThanOrEqual(0.01);
    }
  });
});

describe('Fecha and refusals', () => {
  it('writes a Date as Mexico City wall-clock time without offset (with the old DST too)', () => {
    expect(mexicoCityDateTime(new Date('2026-01-05T15:30:00Z'))).toBe('2026-01-05T09:30:00');
    expect(mexicoCityDateTime(new Date('2022-06-01T12:00:00Z'))).toBe('2022-06-01T07:00:00');
    expect(buildCfdi(sampleInput({ fecha: new Date('2026-05-01T06:00:00Z') }), cert)).toContain('Fecha="2026-05-01T00:00:00"');
    expect(() => buildCfdi(sampleInput({ fecha: '2026-05-01T12:00:00-06:00' }), cert)).toThrow(CfdiBuildError);
  });

  it('refuses what SAT would reject', () => {
    const fails = (input: CfdiInput) => () => buildCfdi(input, cert);
    expect(fails(withConceptos())).toThrow(/at least one/);
    expect(fails(withConceptos(concepto({ traslados: [] })))).toThrow(/ObjetoImp 02/);
    expect(fails(withConceptos(concepto({ objetoImp: '01' })))).toThrow(/CFDI40172/);
    expect(fails(withConceptos(concepto({ descripcion: 'a | b' })))).toThrow(/'\|'/);
    expect(fails(withConceptos(concepto({ descripcion: '   ' })))).toThrow(/empty/);
    expect(fails(withConceptos(concepto({ valorUnitario: '0' })))).toThrow(/CFDI40166/);
    expect(fails(withConceptos(concepto({ valorUnitario: '-1' })))).toThrow(/invalid amount/);
    expect(fails(withConceptos(concepto({ valorUnitario: '1.1234567' })))).toThrow(/6 decimals/);
    expect(fails(withConceptos(concepto({ descuento: '100.01' })))).toThrow(/CFDI40169/);
    expect(fails(withConceptos(concepto({ traslados: [{ impuesto: '002', tipoFactor: 'Tasa' }] })))).toThrow(/CFDI40178/);
    expect(fails(sampleInput({ metodoPago: 'PPD' }))).toThrow(/CFDI40104/);
    expect(fails(sampleInput({ receptor: { rfc: 'XAXX010101000', nombre: 'PUBLICO EN GENERAL', domicilioFiscalReceptor: '42501', regimenFiscalReceptor: '616', usoCfdi: 'S01' } })))
      .toThrow(/CFDI40130/);
  });
});
