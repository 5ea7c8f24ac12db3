// SAT's CFDI 4.0 error matrix, rule by rule: for each implemented code, a real CFDI (or that CFDI
// with a setting that makes the rule apply) passes, and the same CFDI with one thing changed fails
// with that code. Changing a sealed CFDI breaks its Sello, so each case looks only at its own code.
import { describe, expect, it } from 'vitest';
import { checkCfdi40, CFDI40_RULES_IMPLEMENTED, type PublishedLists } from '../../../../src/server/cfdi/rules';
import { CCE20, fixture, mutate, type Doc } from './mutate';

const BASES = {
  /** I, MXN, a discount, IVA 16 %, stamped (SAT's test CSD EKU9003173C9). */
  eku: { file: 'cfdi40-ingreso-eku-descuento-stamped.xml', now: new Date('2025-02-20T00:00:00Z') },
  /** I with an ISR retención, ACuentaTerceros, InformacionAduanera and a Parte (its Sello was broken upstream). */
  terceros: { file: 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml', now: new Date('2022-02-09T12:00:00Z') },
  /** P (Pagos 2.0), Moneda XXX. */
  pago: { file: 'cfdi40-pago20-sw-stamped.xml', now: new Date('2022-02-09T12:00:00Z') },
  /** I in USD with TipoCambio, not stamped. */
  usd: { file: 'cfdi40-ingreso-usd-tipocambio-unstamped.xml', now: new Date('2023-06-19T02:00:00Z') },
} as const;
type Base = keyof typeof BASES;

interface Case {
  code: string;
  base: Base;
  /** Makes the base fit the rule's conditions while still valid (the passing fixture). */
  pass?: (d: Doc) => unknown;
  /** The one change that breaks the rule (applied after `pass`). */
  fail: (d: Doc) => unknown;
  /** Published data the rule needs (exchange rates, SAT's cancelled RFCs), given to both fixtures. */
  lists?: PublishedLists;
}

/** Banxico's FIX as the exchange_rates table would give it for the 'usd' base (Fecha 2023-06-18). */
const USD_RATE: PublishedLists = { rate: (currency, date) => (currency === 'USD' && date === '2023-06-18' ? '18.500000' : undefined) };
/** SAT's list of cancelled RFCs, as kept in inactive_rfcs. */
const CANCELLED: PublishedLists = { cancelledRfc: (rfc) => rfc === 'AAA010101AAA' };

const foreign = (d: Doc, extra: Record<string, string | undefined> = {}) =>
  d.set('Receptor', { Rfc: 'XEXX010101000', Nombre: 'ACME INC', RegimenFiscalReceptor: '616', UsoCFDI: 'S01', DomicilioFiscalReceptor: '86000', ...extra });
const global = (d: Doc, attrs: Record<string, string> = { Periodicidad: '01', Meses: '02', Año: '2025' }) => {
  d.set('Receptor', { Rfc: 'XAXX010101000', Nombre: 'PUBLICO EN GENERAL', RegimenFiscalReceptor: '616', UsoCFDI: 'S01', DomicilioFiscalReceptor: '86000' });
  d.add(d.root, 'InformacionGlobal', attrs, true);
};
/** Only exempt lines: the concept's and the summary's Traslado carry Base, Impuesto and TipoFactor alone. */
const exento = (d: Doc) => {
  const gone = { TipoFactor: 'Exento', TasaOCuota: undefined, Importe: undefined };
  d.set(d.el('Traslado', 0), gone).set(d.el('Traslado', 1), gone);
  d.set(d.el('Impuestos', 1), { TotalImpuestosTrasladados: undefined }).set(d.root, { Total: '2868.11' });
};
const summary = (d: Doc) => d.el('Impuestos', 1);
const summaryTraslado = (d: Doc) => d.el('Traslado', 1);
const summaryRetencion = (d: Doc) => d.el('Retencion', 1);

const CASES: Case[] = [
  { code: 'CFDI40101', base: 'eku', fail: (d) => d.set(d.root, { Fecha: '2025-02-19 08:32:29' }) },
  { code: 'CFDI40102', base: 'eku', fail: (d) => d.set('Concepto', { Descripcion: 'Otra cosa' }) },
  { code: 'CFDI40103', base: 'pago', fail: (d) => d.set(d.root, { FormaPago: '01' }) },
  { code: 'CFDI40104', base: 'eku', fail: (d) => d.set(d.root, { FormaPago: '07' }) },
  { code: 'CFDI40105', base: 'eku', pass: (d) => d.set(d.root, { MetodoPago: 'PPD', FormaPago: '99' }), fail: (d) => d.set(d.root, { FormaPago: '01' }) },
  { code: 'CFDI40106', base: 'eku', fail: (d) => d.set(d.root, { Certificado: 'TUlJRnNEQ0NBNWln' }) },
  { code: 'CFDI40107', base: 'eku', fail: (d) => d.set(d.root, { SubTotal: '3824.150' }) },
  { code: 'CFDI40108', base: 'eku', fail: (d) => d.set(d.root, { SubTotal: '3824.16' }) },
  { code: 'CFDI40109', base: 'pago', fail: (d) => d.set(d.root, { SubTotal: '1' }) },
  { code: 'CFDI40110', base: 'eku', fail: (d) => d.set(d.root, { Descuento: '4000.00' }) },
  { code: 'CFDI40111', base: 'eku', fail: (d) => d.set(d.root, { Descuento: undefined }) },
  { code: 'CFDI40112', base: 'eku', fail: (d) => d.set(d.root, { Descuento: '956.040' }) },
  { code: 'CFDI40113', base: 'eku', fail: (d) => d.set(d.root, { Moneda: 'MXP' }) },
  { code: 'CFDI40114', base: 'eku', pass: (d) => d.set(d.root, { TipoCambio: '1' }), fail: (d) => d.set(d.root, { TipoCambio: '1.5' }) },
  { code: 'CFDI40115', base: 'usd', fail: (d) => d.set(d.root, { TipoCambio: undefined }) },
  { code: 'CFDI40116', base: 'pago', fail: (d) => d.set(d.root, { TipoCambio: '1' }) },
  { code: 'CFDI40117', base: 'usd', fail: (d) => d.set(d.root, { TipoCambio: '18.9008123' }) },
  { code: 'CFDI40118', base: 'usd', lists: USD_RATE, fail: (d) => d.set(d.root, { TipoCambio: '19.5000' }) },
  { code: 'CFDI40119', base: 'eku', fail: (d) => d.set(d.root, { Total: '3327.02' }) },
  { code: 'CFDI40120', base: 'eku', fail: (d) => d.set(d.root, { Total: '9999999999999999999' }) },
  { code: 'CFDI40121', base: 'eku', fail: (d) => d.set(d.root, { TipoDeComprobante: 'X' }) },
  { code: 'CFDI40122', base: 'eku', fail: (d) => d.set(d.root, { Exportacion: '02' }) },
  { code: 'CFDI40123', base: 'eku', fail: (d) => d.set(d.root, { Exportacion: '05' }) },
  { code: 'CFDI40124', base: 'eku', fail: (d) => d.set(d.root, { MetodoPago: 'PPX' }) },
  { code: 'CFDI40125', base: 'pago', fail: (d) => d.set(d.root, { MetodoPago: 'PUE' }) },
  { code: 'CFDI40126', base: 'eku', fail: (d) => d.set(d.root, { LugarExpedicion: '18000' }) },
  { code: 'CFDI40127', base: 'eku', fail: (d) => d.set(d.root, { Confirmacion: 'ECVH1' }) },
  { code: 'CFDI40130', base: 'eku', pass: (d) => global(d), fail: (d) => d.remove('InformacionGlobal') },
  { code: 'CFDI40131', base: 'eku', pass: (d) => global(d), fail: (d) => d.set('InformacionGlobal', { Periodicidad: '09' }) },
  { code: 'CFDI40132', base: 'eku', pass: (d) => global(d), fail: (d) => d.set('InformacionGlobal', { Periodicidad: '05', Meses: '13' }) },
  { code: 'CFDI40133', base: 'eku', pass: (d) => global(d), fail: (d) => d.set('InformacionGlobal', { Meses: '19' }) },
  { code: 'CFDI40134', base: 'eku', pass: (d) => global(d), fail: (d) => d.set('InformacionGlobal', { Meses: '13' }) },
  { code: 'CFDI40135', base: 'eku', pass: (d) => { global(d, { Periodicidad: '05', Meses: '13', Año: '2025' }); d.set('Emisor', { RegimenFiscal: '621' }); }, fail: (d) => d.set('InformacionGlobal', { Meses: '01' }) },
  { code: 'CFDI40136', base: 'eku', pass: (d) => global(d, { Periodicidad: '04', Meses: '12', Año: '2020' }), fail: (d) => d.set('InformacionGlobal', { Año: '2019' }) },
  { code: 'CFDI40137', base: 'eku', pass: (d) => d.add(d.root, 'CfdiRelacionados', { TipoRelacion: '01' }, true), fail: (d) => d.set('CfdiRelacionados', { TipoRelacion: '08' }) },
  { code: 'CFDI40138', base: 'eku', lists: CANCELLED, fail: (d) => d.set('Emisor', { Rfc: 'AAA010101AAA' }) },
  { code: 'CFDI40140', base: 'eku', fail: (d) => d.set('Emisor', { RegimenFiscal: '600' }) },
  { code: 'CFDI40141', base: 'eku', fail: (d) => d.set('Emisor', { RegimenFiscal: '612' }) },
  { code: 'CFDI40143', base: 'eku', fail: (d) => d.set('Receptor', { Rfc: 'MCI7313249Y1' }) },
  { code: 'CFDI40146', base: 'eku', fail: (d) => d.set('Receptor', { Nombre: 'PUBLICO EN GENERAL' }) },
  { code: 'CFDI40147', base: 'eku', fail: (d) => d.set('Receptor', { DomicilioFiscalReceptor: '5470' }) },
  { code: 'CFDI40149', base: 'eku', pass: (d) => global(d), fail: (d) => d.set('Receptor', { DomicilioFiscalReceptor: '54700' }) },
  { code: 'CFDI40150', base: 'eku', pass: (d) => foreign(d, { ResidenciaFiscal: 'USA' }), fail: (d) => d.set('Receptor', { ResidenciaFiscal: 'XYZ' }) },
  { code: 'CFDI40151', base: 'eku', fail: (d) => d.set('Receptor', { ResidenciaFiscal: 'USA' }) },
  { code: 'CFDI40152', base: 'eku', pass: (d) => foreign(d, { ResidenciaFiscal: 'USA' }), fail: (d) => d.set('Receptor', { ResidenciaFiscal: 'MEX' }) },
  { code: 'CFDI40153', base: 'eku', pass: (d) => foreign(d, { ResidenciaFiscal: 'USA', NumRegIdTrib: '123456789' }), fail: (d) => d.set('Receptor', { ResidenciaFiscal: undefined }) },
  { code: 'CFDI40154', base: 'eku', fail: (d) => d.set('Receptor', { NumRegIdTrib: '123456789' }) },
  { code: 'CFDI40155', base: 'eku', pass: (d) => { foreign(d, { ResidenciaFiscal: 'USA', NumRegIdTrib: '123456789' }); d.set(d.root, { Exportacion: '02' }).complement(CCE20, 'cce20:ComercioExterior', { Version: '2.0' }); }, fail: (d) => d.set('Receptor', { NumRegIdTrib: undefined }) },
  { code: 'CFDI40156', base: 'eku', pass: (d) => foreign(d, { ResidenciaFiscal: 'USA', NumRegIdTrib: '123456789' }), fail: (d) => d.set('Receptor', { NumRegIdTrib: '12345' }) },
  { code: 'CFDI40157', base: 'eku', fail: (d) => d.set('Receptor', { RegimenFiscalReceptor: '600' }) },
  { code: 'CFDI40158', base: 'eku', fail: (d) => d.set('Receptor', { RegimenFiscalReceptor: '612' }) },
  { code: 'CFDI40159', base: 'eku', pass: (d) => foreign(d), fail: (d) => d.set('Receptor', { RegimenFiscalReceptor: '605' }) },
  { code: 'CFDI40160', base: 'eku', fail: (d) => d.set('Receptor', { UsoCFDI: 'P01' }) },
  { code: 'CFDI40161', base: 'eku', fail: (d) => d.set('Receptor', { UsoCFDI: 'D01' }) },
  { code: 'CFDI40162', base: 'eku', fail: (d) => d.set('Concepto', { ClaveProdServ: '5216155' }) },
  { code: 'CFDI40165', base: 'eku', fail: (d) => d.set('Concepto', { ClaveUnidad: 'PZA' }) },
  { code: 'CFDI40166', base: 'eku', fail: (d) => d.set('Concepto', { ValorUnitario: '0' }) },
  { code: 'CFDI40167', base: 'eku', fail: (d) => d.set('Concepto', { Importe: '3000.00' }) },
  { code: 'CFDI40168', base: 'eku', fail: (d) => d.set('Concepto', { Descuento: '956.041' }) },
  { code: 'CFDI40169', base: 'eku', fail: (d) => d.set('Concepto', { Descuento: '4000.00' }) },
  { code: 'CFDI40170', base: 'eku', fail: (d) => d.set('Concepto', { ObjetoImp: '09' }) },
  { code: 'CFDI40171', base: 'eku', fail: (d) => d.remove(d.el('Impuestos', 0)) },
  { code: 'CFDI40172', base: 'eku', fail: (d) => d.set('Concepto', { ObjetoImp: '01' }) },
  { code: 'CFDI40173', base: 'eku', fail: (d) => d.remove(d.el('Traslados', 0)) },
  { code: 'CFDI40174', base: 'eku', fail: (d) => d.set(d.el('Traslado', 0), { Base: '0' }) },
  { code: 'CFDI40175', base: 'eku', fail: (d) => d.set(d.el('Traslado', 0), { Impuesto: '001' }) },
  { code: 'CFDI40176', base: 'eku', fail: (d) => d.set(d.el('Traslado', 0), { TipoFactor: 'Tasas' }) },
  { code: 'CFDI40177', base: 'eku', fail: (d) => d.set(d.el('Traslado', 0), { TipoFactor: 'Exento' }) },
  { code: 'CFDI40178', base: 'eku', fail: (d) => d.set(d.el('Traslado', 0), { TasaOCuota: undefined }) },
  { code: 'CFDI40179', base: 'eku', fail: (d) => d.set(d.el('Traslado', 0), { TasaOCuota: '0.150000' }) },
  { code: 'CFDI40180', base: 'eku', fail: (d) => d.set(d.el('Traslado', 0), { Importe: '400.00' }) },
  { code: 'CFDI40181', base: 'terceros', fail: (d) => d.set(d.el('Retencion', 0), { Base: '0' }) },
  { code: 'CFDI40182', base: 'terceros', fail: (d) => d.set(d.el('Retencion', 0), { Impuesto: '004' }) },
  { code: 'CFDI40183', base: 'terceros', fail: (d) => d.set(d.el('Retencion', 0), { TipoFactor: 'Tasas' }) },
  { code: 'CFDI40184', base: 'terceros', fail: (d) => d.set(d.el('Retencion', 0), { TipoFactor: 'Exento' }) },
  { code: 'CFDI40185', base: 'terceros', fail: (d) => d.set(d.el('Retencion', 0), { TasaOCuota: '0.400000' }) },
  { code: 'CFDI40186', base: 'terceros', fail: (d) => d.set(d.el('Retencion', 0), { Importe: '25' }) },
  { code: 'CFDI40188', base: 'terceros', fail: (d) => d.set('ACuentaTerceros', { RfcACuentaTerceros: 'EKU9003173C9' }) },
  {
    code: 'CFDI40189', base: 'terceros',
    pass: (d) => d.set('ACuentaTerceros', { RfcACuentaTerceros: 'EXT990101NI1', DomicilioFiscalACuentaTerceros: '20000', NombreACuentaTerceros: 'EXPEDICIÓN DE CFDI POR RESIDENTES EN MÉXICO QUE PRESTAN SERVICIOS DE INTERMEDIACIÓN ENTRE TERCEROS A OFERENTES DE BIENES Y SERVICIOS RESIDENTES EN EL EXTRANJERO' }),
    fail: (d) => d.set('ACuentaTerceros', { NombreACuentaTerceros: 'ADRIANA JUAREZ FERNANDEZ' }),
  },
  { code: 'CFDI40191', base: 'terceros', fail: (d) => d.set('ACuentaTerceros', { RegimenFiscalACuentaTerceros: '600' }) },
  {
    code: 'CFDI40193', base: 'terceros',
    pass: (d) => d.set('ACuentaTerceros', { RfcACuentaTerceros: 'EXT990101NI1', DomicilioFiscalACuentaTerceros: '20000', NombreACuentaTerceros: 'EXPEDICIÓN DE CFDI POR RESIDENTES EN MÉXICO QUE PRESTAN SERVICIOS DE INTERMEDIACIÓN ENTRE TERCEROS A OFERENTES DE BIENES Y SERVICIOS RESIDENTES EN EL EXTRANJERO' }),
    fail: (d) => d.set('ACuentaTerceros', { DomicilioFiscalACuentaTerceros: '29133' }),
  },
  { code: 'CFDI40194', base: 'terceros', fail: (d) => d.set('InformacionAduanera', { NumeroPedimento: '21 47 3807 8003832' }) },
  { code: 'CFDI40195', base: 'terceros', fail: (d) => d.complement(CCE20, 'cce20:ComercioExterior', { Version: '2.0' }) },
  { code: 'CFDI40196', base: 'terceros', fail: (d) => d.set('Parte', { ClaveProdServ: '5021150X' }) },
  { code: 'CFDI40197', base: 'terceros', fail: (d) => d.set('Parte', { ValorUnitario: '0' }) },
  { code: 'CFDI40198', base: 'terceros', fail: (d) => d.set('Parte', { Importe: '400.00' }) },
  { code: 'CFDI40199', base: 'terceros', pass: (d) => d.add('Parte', 'InformacionAduanera', { NumeroPedimento: '21  47  3807  8003833' }), fail: (d) => d.set(d.el('InformacionAduanera', 1), { NumeroPedimento: '2147380780038330' }) },
  { code: 'CFDI40200', base: 'terceros', pass: (d) => d.add('Parte', 'InformacionAduanera', { NumeroPedimento: '21  47  3807  8003833' }), fail: (d) => d.complement(CCE20, 'cce20:ComercioExterior', { Version: '2.0' }) },
  { code: 'CFDI40201', base: 'pago', fail: (d) => d.add(d.root, 'Impuestos', {}) },
  { code: 'CFDI40202', base: 'terceros', fail: (d) => d.set(summary(d), { TotalImpuestosRetenidos: '20.000' }) },
  { code: 'CFDI40203', base: 'terceros', fail: (d) => d.set(summary(d), { TotalImpuestosRetenidos: '21' }) },
  { code: 'CFDI40204', base: 'eku', fail: (d) => d.set(summary(d), { TotalImpuestosTrasladados: '458.900' }) },
  { code: 'CFDI40205', base: 'eku', fail: (d) => d.set(summary(d), { TotalImpuestosTrasladados: '458.91' }) },
  { code: 'CFDI40206', base: 'terceros', fail: (d) => d.set(summary(d), { TotalImpuestosRetenidos: undefined }) },
  { code: 'CFDI40207', base: 'terceros', fail: (d) => d.set(summaryRetencion(d), { Impuesto: '004' }) },
  { code: 'CFDI40208', base: 'terceros', fail: (d) => d.duplicate(summaryRetencion(d)) },
  { code: 'CFDI40209', base: 'terceros', fail: (d) => d.set(summary(d), { TotalImpuestosRetenidos: undefined }) },
  { code: 'CFDI40210', base: 'terceros', fail: (d) => d.set(summaryRetencion(d), { Importe: '20.000' }) },
  { code: 'CFDI40211', base: 'terceros', fail: (d) => { d.set(summaryRetencion(d), { Importe: '21' }); d.set(summary(d), { TotalImpuestosRetenidos: '21' }); } },
  { code: 'CFDI40212', base: 'eku', fail: (d) => d.set(summary(d), { TotalImpuestosTrasladados: undefined }) },
  { code: 'CFDI40213', base: 'eku', pass: exento, fail: (d) => d.set(summaryTraslado(d), { TasaOCuota: '0.000000' }) },
  { code: 'CFDI40214', base: 'eku', fail: (d) => d.set(summaryTraslado(d), { Base: '2868.110' }) },
  { code: 'CFDI40215', base: 'eku', fail: (d) => d.set(summaryTraslado(d), { Base: '2868.12' }) },
  { code: 'CFDI40216', base: 'eku', pass: exento, fail: (d) => d.set(summaryTraslado(d), { Base: '2800.00' }) },
  { code: 'CFDI40217', base: 'eku', fail: (d) => d.set(summaryTraslado(d), { Impuesto: '001' }) },
  { code: 'CFDI40218', base: 'eku', fail: (d) => d.duplicate(summaryTraslado(d)) },
  { code: 'CFDI40219', base: 'eku', fail: (d) => d.set(summaryTraslado(d), { TasaOCuota: '0.150000' }) },
  { code: 'CFDI40220', base: 'eku', fail: (d) => d.set(summaryTraslado(d), { Importe: '458.900' }) },
  { code: 'CFDI40221', base: 'eku', fail: (d) => { d.set(summaryTraslado(d), { Importe: '458.91' }); d.set(summary(d), { TotalImpuestosTrasladados: '458.91' }); } },
  { code: 'CFDI40222', base: 'eku', fail: (d) => d.complement(CCE20, 'cce20:ComercioExterior', { Version: '2.0' }) },
];

function codes(base: Base, edit?: (d: Doc) => unknown, lists?: PublishedLists): string[] {
  const { file, now } = BASES[base];
  const xml = edit ? mutate(fixture(file), edit) : fixture(file);
  return checkCfdi40(xml, { now, lists }).map((f) => f.code);
}

describe('SAT CFDI 4.0 error matrix', () => {
  it('has one passing and one failing fixture for every implemented rule', () => {
    expect(CASES.map((c) => c.code).sort()).toEqual([...CFDI40_RULES_IMPLEMENTED]);
  });

  it.each(CASES.map((c) => [c.code, c] as const))('%s: passes, then fails with one change', (code, c) => {
    expect(codes(c.base, c.pass, c.lists)).not.toContain(code);
    expect(codes(c.base, (d) => { c.pass?.(d); c.fail(d); }, c.lists)).toContain(code);
  });

  it('the base fixtures are clean (but for the Sello broken upstream)', () => {
    expect(codes('eku')).toEqual([]);
    expect(codes('pago')).toEqual([]);
    expect(codes('usd')).toEqual([]);
    expect(codes('terceros')).toEqual(['CFDI40102']);
  });
});
