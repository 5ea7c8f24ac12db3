import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { CFDI_MAX_BYTES, MAX_DEPTH, hasDtdMarkup, readCfdi, type CfdiData, type CfdiReadResult } from '../../../src/server/cfdi/read';

const FIXTURES = fileURLToPath(new URL('../../fixtures/cfdi', import.meta.url));
const bytes = (name: string) => new Uint8Array(readFileSync(resolve(FIXTURES, name)));
const text = (name: string) => readFileSync(resolve(FIXTURES, name), 'utf8');
const utf8 = (s: string) => new TextEncoder().encode(s);

function accepted(r: CfdiReadResult): CfdiData {
  if (!r.ok) throw new Error(`refused: ${r.reason} ${r.detail ?? ''}`);
  return r.cfdi;
}
const read = (name: string) => accepted(readCfdi(bytes(name)));
const reasonOf = (r: CfdiReadResult) => (r.ok ? `accepted ${r.cfdi.uuid}` : r.reason);

const TEST_UUID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
/** Adds a TimbreFiscalDigital to an unstamped sample, as a PAC would (values are test values). */
function stamp(xml: string, uuid = TEST_UUID): Uint8Array {
  const tfd =
    `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="${uuid}" ` +
    'FechaTimbrado="2023-06-14T10:00:00" RfcProvCertif="SPR190613I52" SelloCFD="c2VsbG8=" NoCertificadoSAT="30001000000500003456" SelloSAT="c2F0"/>';
  const out = xml.includes('</cfdi:Complemento>')
    ? xml.replace('</cfdi:Complemento>', `${tfd}</cfdi:Complemento>`)
    : xml.replace('</cfdi:Comprobante>', `<cfdi:Complemento>${tfd}</cfdi:Complemento></cfdi:Comprobante>`);
  if (out === xml) throw new Error('no place for the TFD');
  return utf8(out);
}

/** Minimal CFDI 4.0 around what a test changes. */
function cfdi40({ root = '', body = '', tfd = true } = {}): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Fecha="2026-01-02T03:04:05" ' +
    `SubTotal="100.00" Total="116.00" Moneda="MXN" TipoDeComprobante="I" LugarExpedicion="42501" ${root}>` +
    (body ||
      '<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>' +
        '<cfdi:Receptor Rfc="XIQB891116QE4" Nombre="BERENICE XIMO QUEZADA" UsoCFDI="G03"/>') +
    (tfd
      ? '<cfdi:Complemento><tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" ' +
        `UUID="${TEST_UUID}" FechaTimbrado="2026-01-02T03:05:00"/></cfdi:Complemento>`
      : '') +
    '</cfdi:Comprobante>'
  );
}

type Expected =
  | { refused: string }
  | (Partial<Omit<CfdiData, 'issuer' | 'receiver'>> & { issuerRfc: string; receiverRfc: string; uuid: string });

/**
 * The outcome of every file in tests/fixtures/cfdi. Accepted ones: the ledger's fields;
 * refused ones: the reason the user sees.
 */
const EXPECTED: Record<string, Expected> = {
  'cfdi32-ingreso-real-legacy-stamped.xml': {
    version: '3.2', tipoDeComprobante: 'I', uuid: '80824F3B-323E-407B-8F8E-40D83FE2E69F', issuerRfc: 'CTO021007DZ8', receiverRfc: 'XAXX010101000',
    fecha: '2017-03-21T08:17:31', total: '4685.00', moneda: 'MXN', amountMxn: '4685.00', trasladados: '646.21', retenidos: '0.00',
    metodoPago: 'PUE', formaPago: '04', numCtaPago: '0291',
  },
  'cfdi33-ingreso-multiples-tasas-stamped.xml': {
    version: '3.3', tipoDeComprobante: 'I', uuid: '1FBA4626-947B-49AC-BCD4-A4AF266B3DBF', issuerRfc: 'ACO560518KW7', receiverRfc: 'MEBS780711118',
    total: '300.00', moneda: 'MXN', amountMxn: '300.00', trasladados: '13.79', retenidos: '0.00', metodoPago: 'PPD', formaPago: '03', numCtaPago: '',
  },
  'cfdi33-ingreso-publico-general-detallista-stamped.xml': {
    version: '3.3', tipoDeComprobante: 'I', uuid: '4C7A0582-5151-43B3-BA74-4E710479A1EE', issuerRfc: 'LAN8507268IA', receiverRfc: 'XAXX010101000',
    total: '6.9', amountMxn: '6.90', trasladados: '0.95', retenidos: '0.00', metodoPago: 'PUE', formaPago: '01', complements: ['detallista', 'TimbreFiscalDigital'],
  },
  'cfdi33-ingreso-real-implocal-stamped.xml': {
    version: '3.3', tipoDeComprobante: 'I', uuid: 'CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC', issuerRfc: 'POT9207213D6', receiverRfc: 'DIM8701081LA',
    fecha: '2018-01-12T08:15:01', total: '2010.01', amountMxn: '2010.01', trasladados: '300.89', retenidos: '0.00', metodoPago: 'PUE', formaPago: '04',
    complements: ['ImpuestosLocales', 'TimbreFiscalDigital'],
  },
  'cfdi33-ingreso-traslados-retenciones-stamped.xml': {
    version: '3.3', tipoDeComprobante: 'I', uuid: '9FB6ED1A-5F37-4FEF-980A-7F8C83B51894', issuerRfc: 'EKU9003173C9', receiverRfc: 'COSC8001137NA',
    total: '2382870', tipoCambio: '1', amountMxn: '2382870.00', trasladados: '363104.00', retenidos: '249634.00', metodoPago: 'PUE', formaPago: '01',
  },
  'cfdi33-ingreso-usd-tipocambio-unstamped.xml': { refused: MSG.cfdiNoUuid },
  'cfdi33-pago10-stamped.xml': {
    version: '3.3', tipoDeComprobante: 'P', uuid: '9FB6ED1A-5F37-4FEF-980A-7F8C83B51894', issuerRfc: 'AAA010101AAA', receiverRfc: 'COSC8001137NA',
    total: '0', moneda: 'XXX', amountMxn: '4000.00', trasladados: '0.00', retenidos: '0.00', metodoPago: '', formaPago: '03', numCtaPago: '',
    complements: ['Pagos', 'TimbreFiscalDigital'],
  },
  'cfdi40-ingreso-acuentaterceros-sw-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: 'D69E0C63-8F17-4FB3-9838-D834FD901474', issuerRfc: 'EKU9003173C9', receiverRfc: 'URE180429TM6',
    total: '180', amountMxn: '180.00', trasladados: '0.00', retenidos: '20.00', metodoPago: 'PPD', formaPago: '99',
  },
  'cfdi40-ingreso-eku-descuento-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: '6F35D3B5-3651-5370-BC2C-14CDBE384CD7', issuerRfc: 'EKU9003173C9', receiverRfc: 'MCI7306249Y1',
    total: '3327.01', amountMxn: '3327.01', trasladados: '458.90', retenidos: '0.00', metodoPago: 'PUE', formaPago: '01',
  },
  'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: 'F08A8B8C-26DB-5385-86AF-2A1D354C5CC3', issuerRfc: 'EKU9003173C9', receiverRfc: 'ICV060329BY0',
    total: '1191.95', amountMxn: '1191.95', trasladados: '200.05', retenidos: '258.40', metodoPago: 'PPD', formaPago: '99',
  },
  'cfdi40-ingreso-iva8-frontera-simulated-tfd.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0', issuerRfc: 'H&E951128469', receiverRfc: 'KIJ0906199R1',
    total: '16621.52', amountMxn: '16621.52', trasladados: '1231.22', retenidos: '0.00', metodoPago: 'PPD', formaPago: '',
  },
  // Same (fake) UUID as the iva8 file: de-duplication is the importer's job, reading both is ours.
  'cfdi40-ingreso-noobjeto-simulated-tfd.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0', issuerRfc: 'H&E951128469', receiverRfc: 'KIJ0906199R1',
    total: '15390.30', amountMxn: '15390.30', trasladados: '0.00', retenidos: '0.00', taxLines: [],
  },
  'cfdi40-ingreso-real-pase-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: 'C2832671-DA6D-11EF-A83D-00155D012007', issuerRfc: 'ISD950921HE5', receiverRfc: 'COSC8001137NA',
    fecha: '2025-01-24T10:10:41', total: '1000.00', moneda: 'MXN', tipoCambio: '1', amountMxn: '1000.00', trasladados: '137.93', retenidos: '0.00',
    metodoPago: 'PUE', formaPago: '04', numCtaPago: '',
  },
  'cfdi40-ingreso-real-resico626-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: '04BF2854-FE7D-4377-9196-71248F060ABB', issuerRfc: 'CSM190311AH6', receiverRfc: 'MCI7306249Y1',
    total: '459.36', amountMxn: '459.36', trasladados: '63.36', retenidos: '0.00', serie: '', folio: '',
  },
  'cfdi40-ingreso-retenciones-sw-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: '81B3DBC2-8A68-4850-9FA5-2D017A98D26F', issuerRfc: 'EKU9003173C9', receiverRfc: 'URE180429TM6',
    total: '228.00', amountMxn: '228.00', trasladados: '32.00', retenidos: '4.00', complements: ['INE', 'TimbreFiscalDigital'],
  },
  'cfdi40-ingreso-usd-tipocambio-unstamped.xml': { refused: MSG.cfdiNoUuid },
  // A placeholder stamp (all-zero UUID) is no timbre: refused.
  'cfdi40-nomina12-demo-unsigned.xml': { refused: MSG.cfdiBadUuid },
  'cfdi40-nomina12-sw-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'N', uuid: '1AC10691-E5C5-422F-9EC0-0AAFE486D493', issuerRfc: 'EKU9003173C9', receiverRfc: 'XOJI740919U48',
    total: '4700', descuento: '300', amountMxn: '4700.00', trasladados: '0.00', retenidos: '100.00', metodoPago: 'PUE', formaPago: '',
  },
  'cfdi40-pago20-iva16-simulated-tfd.xml': {
    version: '4.0', tipoDeComprobante: 'P', uuid: '5B64ADA3-AA4C-40B4-A2F5-572CED52BE31', issuerRfc: 'H&E951128469', receiverRfc: 'KIJ0906199R1',
    total: '0', moneda: 'XXX', amountMxn: '17852.75', trasladados: '2462.45', retenidos: '0.00', formaPago: '03', numCtaPago: '',
  },
  'cfdi40-pago20-sw-stamped.xml': {
    version: '4.0', tipoDeComprobante: 'P', uuid: '080CF54E-F9DB-4470-BF0D-A8613DC10B24', uuidAsWritten: '080cf54e-f9db-4470-bf0d-a8613dc10b24',
    issuerRfc: 'EKU9003173C9', receiverRfc: 'URE180429TM6', total: '0.00', amountMxn: '200.00', trasladados: '0.00', retenidos: '0.00', formaPago: '01',
  },
  'cfdi40-pago20-unstamped.xml': { refused: MSG.cfdiNoUuid },
  'cfdi40-pago20-usd-extranjero-unsigned.xml': { refused: MSG.cfdiNoUuid },
  'cfdi40-pago20-usd-pays-mxn-docs-unsigned.xml': { refused: MSG.cfdiNoUuid },
  'edge-cfdi33-sello-with-line-breaks-stamped.xml': {
    version: '3.3', tipoDeComprobante: 'I', uuid: '1D81C696-0401-4F85-B703-6E0D3AFD6056', issuerRfc: 'EKU9003173C9', receiverRfc: 'XAXX010101000',
    total: '697.80', amountMxn: '697.80', trasladados: '96.25', retenidos: '0.00',
  },
  // Two TFDs: the first wins. Rial at 2378590.234907 pesos each: exact decimal product, rounded once.
  'edge-cfdi40-multiple-tfd-addenda-random-values.xml': {
    version: '4.0', tipoDeComprobante: 'I', uuid: '9D81C696-0401-4F85-B703-6E0D3AFD6056', issuerRfc: 'SKDR690105TM0', receiverRfc: '&ÑOZ291130QPA',
    total: '6078640.234906', moneda: 'IRR', tipoCambio: '2378590.234907', amountMxn: '14458594304260.20', trasladados: '5376690.23', retenidos: '4307870.23',
    tfdCount: 2, complements: ['TimbreFiscalDigital'],
  },
  'invalid-cfdi33-malformed-xml.xml': { refused: MSG.cfdiMalformed },
  'invalid-cfdi33-pago10-sample-errors.xml': { refused: MSG.cfdiNoUuid },
  // Starts with a BOM and comments; parses, then fails the business check: a P with no Pagos complement.
  'invalid-cfdi40-bom-nonsense-values-fake-tfd.xml': { refused: `${MSG.cfdiMissing} Complemento/Pagos` },
  // BOM and a bogus xmlns:schemaLocation: namespace-invalid but well-formed, so it gets as far as the stamp.
  'invalid-cfdi33-registro-fiscal-fake-rfcs.xml': { refused: MSG.cfdiNoUuid },
  'invalid-cfdi40-malformed-random-values.xml': { refused: MSG.cfdiMalformed },
  'invalid-cfdi40-pagos-in-ingreso-bad-version.xml': { refused: MSG.cfdiNoUuid },
  'retenciones20-foreign-min-fake.xml': { refused: MSG.cfdiRetenciones },
  'retenciones20-mexican-min-fake.xml': { refused: MSG.cfdiRetenciones },
  'retenciones20-stamped.xml': { refused: MSG.cfdiRetenciones },
};

describe('every CFDI fixture has its expected outcome', () => {
  it('lists every XML file of the fixtures folder', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.xml') && !f.startsWith('ours-')).sort();
    expect(Object.keys(EXPECTED).sort()).toEqual(files);
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(file, () => {
      const r = readCfdi(bytes(file));
      if ('refused' in expected) {
        expect(reasonOf(r)).toBe(expected.refused);
        return;
      }
      const { issuerRfc, receiverRfc, ...fields } = expected;
      const c = accepted(r);
      expect(c).toMatchObject(fields);
      expect(c.issuer.rfc).toBe(issuerRfc);
      expect(c.receiver.rfc).toBe(receiverRfc);
      expect(c.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
      expect(c.amountMxn).toMatch(/^\d+\.\d{2}$/);
    });
  }
});

describe('what a CFDI 4.0 says', () => {
  it('reads every field of a real production invoice', () => {
    const c = read('cfdi40-ingreso-real-pase-stamped.xml');
    expect(c).toMatchObject({
      serie: 'O',
      folio: '52375239',
      fecha: '2025-01-24T10:10:41',
      lugarExpedicion: '11529',
      exportacion: '01',
      issuer: { rfc: 'ISD950921HE5', nombre: 'PASE, SERVICIOS ELECTRONICOS', regimen: '601' },
      receiver: { rfc: 'COSC8001137NA', nombre: 'CARLOS CORTES SOTO', usoCfdi: 'G03', domicilio: '52176', regimen: '612', residenciaFiscal: '', numRegIdTrib: '' },
      subTotal: '862.07',
      descuento: '',
      noCertificado: '00001000000510877575',
      fechaTimbrado: '2025-01-24T10:10:42',
      noCertificadoSat: '00001000000708361114',
      rfcProvCertif: 'TBN040609RKA',
      tfdVersion: '1.1',
      tfdCount: 1,
      complements: ['TimbreFiscalDigital'],
      pagos: null,
      nomina: null,
      taxLines: [{ kind: 'traslado', impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '862.07', importe: '137.93', local: false }],
    });
    expect(c.conceptos).toEqual([
      {
        claveProdServ: '80141628', noIdentificacion: '', cantidad: '1.000000', claveUnidad: 'E48', unidad: 'NO APLICA',
        descripcion: 'COMISION RECARGA IDMX', valorUnitario: '8.620690', importe: '8.620690', descuento: '', objetoImp: '02',
      },
      {
        claveProdServ: '95111615', noIdentificacion: '', cantidad: '1.000000', claveUnidad: 'E54', unidad: 'NO APLICA',
        descripcion: 'RECARGA IDMX', valorUnitario: '853.448276', importe: '853.448276', descuento: '', objetoImp: '02',
      },
    ]);
    expect(c.sello.endsWith('hNjeNw==')).toBe(true);
    expect(c.sello).toBe(c.selloCfd);
    expect(c.selloSat).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it('total = subtotal − descuento + trasladados − retenidos on every accepted invoice with sane values', () => {
    const insane = new Set(['edge-cfdi40-multiple-tfd-addenda-random-values.xml']);
    let checked = 0;
    for (const file of Object.keys(EXPECTED)) {
      const r = readCfdi(bytes(file));
      if (!r.ok || r.cfdi.tipoDeComprobante !== 'I' || insane.has(file)) continue;
      const c = r.cfdi;
      const cents = (s: string) => Math.round(Number(s || '0') * 100);
      expect(cents(c.subTotal) - cents(c.descuento) + cents(c.trasladados) - cents(c.retenidos), file).toBe(cents(c.total));
      checked++;
    }
    expect(checked).toBe(14);
  });

  it('adds up the tax lines when Impuestos does not state its totals', () => {
    const body =
      '<cfdi:Emisor Rfc="EKU9003173C9" Nombre="E" RegimenFiscal="601"/><cfdi:Receptor Rfc="XIQB891116QE4" Nombre="R" UsoCFDI="G03"/>' +
      '<cfdi:Impuestos><cfdi:Retenciones><cfdi:Retencion Impuesto="001" Importe="10.00"/><cfdi:Retencion Impuesto="002" Importe="10.67"/></cfdi:Retenciones>' +
      '<cfdi:Traslados><cfdi:Traslado Base="100" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="16.00"/>' +
      '<cfdi:Traslado Base="50" Impuesto="002" TipoFactor="Exento"/></cfdi:Traslados></cfdi:Impuestos>';
    const c = accepted(readCfdi(utf8(cfdi40({ body }))));
    expect(c).toMatchObject({ trasladados: '16.00', retenidos: '20.67' });
    expect(c.taxLines.map((t) => [t.kind, t.impuesto, t.tipoFactor, t.importe])).toEqual([
      ['retencion', '001', '', '10.00'],
      ['retencion', '002', '', '10.67'],
      ['traslado', '002', 'Tasa', '16.00'],
      ['traslado', '002', 'Exento', ''],
    ]);
  });

  it('local taxes (ImpuestosLocales) count as transferred taxes and keep their own line', () => {
    const c = read('cfdi33-ingreso-real-implocal-stamped.xml');
    expect(c.taxLines).toContainEqual({ kind: 'traslado', impuesto: 'IH', tipoFactor: '', tasaOCuota: '2.50', base: '', importe: '27.43', local: true });
    expect(c.trasladados).toBe('300.89'); // 273.46 IVA + 27.43 lodging tax
  });

  it('keeps names with accents, Ñ and & as the XML says (entities decoded), whitespace collapsed', () => {
    const c = read('edge-cfdi40-multiple-tfd-addenda-random-values.xml');
    expect(c.issuer.nombre).toBe('ESCUELÄ KEMPER ÚRGATE SA DE CV`}}}~');
    expect(c.receiver).toMatchObject({ rfc: '&ÑOZ291130QPA', residenciaFiscal: 'VGB', numRegIdTrib: 'string' });
    expect(c.condicionesDePago).toBe('NE T15'); // NE&#xD;T15
    expect(read('cfdi40-pago20-sw-stamped.xml').receiver.nombre).toBe('UNIVERSIDAD ROBOTICA ESPAÑOLA SA DE CV');
  });

  it('removes the line breaks a seal may carry', () => {
    const c = read('edge-cfdi33-sello-with-line-breaks-stamped.xml');
    expect(text('edge-cfdi33-sello-with-line-breaks-stamped.xml')).toMatch(/SelloCFD="[^"]*&#xD;&#xA;/);
    for (const seal of [c.sello, c.selloCfd]) {
      expect(seal).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(seal.length).toBe(344); // 2048-bit RSA in base64
    }
    expect(c.sello.slice(-8)).toBe('U997+g==');
  });
});

describe('foreign currency: amountMxn = Total × TipoCambio', () => {
  it('converts a USD invoice once it is stamped (4.0 and 3.3), with exact decimals', () => {
    for (const file of ['cfdi40-ingreso-usd-tipocambio-unstamped.xml', 'cfdi33-ingreso-usd-tipocambio-unstamped.xml']) {
      expect(reasonOf(readCfdi(bytes(file)))).toBe(MSG.cfdiNoUuid);
      const c = accepted(readCfdi(stamp(text(file))));
      // 3248.00 × 18.9008 = 61389.7984
      expect(c, file).toMatchObject({ moneda: 'USD', tipoCambio: '18.9008', total: '3248.00', amountMxn: '61389.80', trasladados: '448.00' });
      expect(c.uuid).toBe(TEST_UUID.toUpperCase());
    }
    expect(read('cfdi33-ingreso-traslados-retenciones-stamped.xml').amountMxn).toBe('2382870.00');
  });

  it('takes no conversion for MXN and XXX, and needs TipoCambio for anything else', () => {
    expect(accepted(readCfdi(utf8(cfdi40({ root: 'TipoCambio="1"' }))))).toMatchObject({ amountMxn: '116.00' });
    expect(reasonOf(readCfdi(utf8(cfdi40().replace('Moneda="MXN"', 'Moneda="EUR"'))))).toBe(`${MSG.cfdiMissing} TipoCambio`);
    const eur = accepted(readCfdi(utf8(cfdi40({ root: 'TipoCambio="20.005"' }).replace('Moneda="MXN"', 'Moneda="EUR"'))));
    expect(eur.amountMxn).toBe('2320.58'); // 116 × 20.005 = 2320.58
  });
  it('CFDI 3.2: a free-text Moneda for pesos is MXN; TipoCambio is checked only when it is used', () => {
    const legacy = text('cfdi32-ingreso-real-legacy-stamped.xml');
    for (const m of ['Pesos', 'MN', 'Pesos Mexicanos', 'MXP']) {
      expect(accepted(readCfdi(utf8(legacy.replace('Moneda="MXN"', `Moneda="${m}"`)))), m).toMatchObject({ moneda: 'MXN', amountMxn: '4685.00' });
    }
    expect(accepted(readCfdi(utf8(legacy.replace('TipoCambio="1.00"', 'TipoCambio="N/A"')))).amountMxn).toBe('4685.00');
    const usd = legacy.replace('Moneda="MXN" TipoCambio="1.00"', 'Moneda="USD" TipoCambio="N/A"');
    expect(reasonOf(readCfdi(utf8(usd)))).toBe(`${MSG.cfdiInvalid} TipoCambio`);
  });
});

describe('Pagos: the payments are the amount', () => {
  it('Pagos 2.0: amount and taxes from Totales (MXN); account from the first payment', () => {
    const c = accepted(readCfdi(stamp(text('cfdi40-pago20-unstamped.xml'))));
    expect(c).toMatchObject({ tipoDeComprobante: 'P', total: '0', amountMxn: '15000.00', trasladados: '2068.96', retenidos: '0.00', formaPago: '03', numCtaPago: '0001970000' });
    expect(c.pagos).toEqual({
      version: '2.0',
      montoTotalMxn: '15000.00',
      pagos: [
        {
          fechaPago: '2023-06-12T17:18:19', formaDePagoP: '03', monedaP: 'MXN', tipoCambioP: '1', monto: '15000.00', numOperacion: '963852',
          rfcEmisorCtaOrd: 'BMI9704113PA', ctaOrdenante: '0001970000', ctaBeneficiario: '0198005000',
          documentos: [
            { idDocumento: '00000000-1111-2222-3333-00000000000A', serie: '', folio: '', monedaDR: 'MXN', numParcialidad: '2', impSaldoAnt: '12000.00', impPagado: '12000.00', impSaldoInsoluto: '0' },
            { idDocumento: '00000000-1111-2222-3333-00000000000B', serie: '', folio: '', monedaDR: 'MXN', numParcialidad: '1', impSaldoAnt: '10000.00', impPagado: '3000.00', impSaldoInsoluto: '7000.00' },
          ],
        },
      ],
    });
  });

  it('Pagos 2.0 in dollars: Totales already in pesos, every payment listed', () => {
    const c = accepted(readCfdi(stamp(text('cfdi40-pago20-usd-pays-mxn-docs-unsigned.xml'))));
    expect(c).toMatchObject({ amountMxn: '2228.49', trasladados: '270.14', formaPago: '03' });
    expect(c.pagos?.pagos.map((p) => [p.monedaP, p.tipoCambioP, p.monto])).toEqual([
      ['USD', '17.4732', '123.45'],
      ['USD', '17.9575', '3.75'],
      ['USD', '17.7418', '0.23'],
    ]);
    const foreign = accepted(readCfdi(stamp(text('cfdi40-pago20-usd-extranjero-unsigned.xml'))));
    expect(foreign).toMatchObject({ amountMxn: '999685.44', receiver: { rfc: 'XEXX010101000', residenciaFiscal: 'PER', numRegIdTrib: '20000123456' } });
  });

  it('Pagos 1.0: Σ Monto × TipoCambioP, and that rate is required for a foreign payment', () => {
    const xml = text('invalid-cfdi33-pago10-sample-errors.xml');
    expect(accepted(readCfdi(stamp(xml)))).toMatchObject({ amountMxn: '1866.12', formaPago: '01', pagos: { version: '1.0', montoTotalMxn: '1866.12' } });
    const usd = xml.replace('MonedaP="MXN"', 'MonedaP="USD" TipoCambioP="17.5"');
    expect(accepted(readCfdi(stamp(usd))).amountMxn).toBe('32657.10'); // 1866.12 × 17.5
    expect(reasonOf(readCfdi(stamp(xml.replace('MonedaP="MXN"', 'MonedaP="USD"'))))).toBe(`${MSG.cfdiMissing} Pago/TipoCambioP`);
    // A payment's own taxes (pago10:Impuestos) are converted with its rate too.
    const taxed = usd.replace('</pago10:Pago>', '<pago10:Impuestos TotalImpuestosTrasladados="160.00" TotalImpuestosRetenidos="10"/></pago10:Pago>');
    expect(accepted(readCfdi(stamp(taxed)))).toMatchObject({ trasladados: '2800.00', retenidos: '175.00' });
  });
});

describe('Nómina 1.2', () => {
  it('summarises the payroll; the ISR withheld is the retained tax (already inside Descuento)', () => {
    const c = read('cfdi40-nomina12-sw-stamped.xml');
    expect(c.nomina).toEqual({
      version: '1.2', tipoNomina: 'O', fechaPago: '2023-05-24', fechaInicialPago: '2023-05-09', fechaFinalPago: '2023-05-24',
      numDiasPagados: '15', totalPercepciones: '5000.0', totalDeducciones: '300', totalOtrosPagos: '', impuestosRetenidos: '100',
    });
    expect(Number(c.subTotal) - Number(c.descuento)).toBe(Number(c.total));
    expect(c.receiver.usoCfdi).toBe('CN01');
  });
});

describe('CFDI 3.2 (read, with its lower-case names)', () => {
  it('maps the old attributes onto the same fields', () => {
    const c = read('cfdi32-ingreso-real-legacy-stamped.xml');
    expect(c).toMatchObject({
      serie: 'S', folio: '68189', tipoCambio: '1.00', descuento: '0.00', lugarExpedicion: 'TOLUCA, ESTADO DE MEXICO', tfdVersion: '1.0',
      issuer: { rfc: 'CTO021007DZ8', nombre: 'CEVER TOLUCA S.A. DE C.V.', regimen: 'Regimen General de Ley Persona Moral' },
      receiver: { rfc: 'XAXX010101000', nombre: 'CORTES SOTO CARLOS', usoCfdi: '', domicilio: '52172' },
      noCertificadoSat: '00001000000404477432',
      taxLines: [{ kind: 'traslado', impuesto: 'IVA', tipoFactor: '', tasaOCuota: '16', base: '', importe: '646.21', local: false }],
    });
    expect(c.conceptos).toHaveLength(7);
    expect(c.conceptos[0]).toMatchObject({ cantidad: '5', unidad: 'PIEZA', noIdentificacion: '00279DRM2001', descripcion: 'ACEITE', valorUnitario: '61.86', importe: '309.30' });
    expect(c.selloCfd).toBe(c.sello);
  });
});

describe('namespaces by URI, not by prefix', () => {
  const pase = text('cfdi40-ingreso-real-pase-stamped.xml');
  const reference = read('cfdi40-ingreso-real-pase-stamped.xml');

  it('reads the same invoice under other prefixes, or the CFDI namespace as default', () => {
    const renamed = pase.replaceAll('cfdi:', 'c:').replaceAll('xmlns:cfdi=', 'xmlns:c=').replaceAll('tfd:', 'sat:').replaceAll('xmlns:tfd=', 'xmlns:sat=');
    expect(renamed).not.toContain('cfdi:');
    expect(accepted(readCfdi(utf8(renamed)))).toEqual(reference);
    const unprefixed = pase.replaceAll('cfdi:', '').replace('xmlns:cfdi=', 'xmlns=');
    expect(accepted(readCfdi(utf8(unprefixed)))).toEqual(reference);
  });

  it('ignores the right prefixes bound to the wrong URIs', () => {
    expect(reasonOf(readCfdi(utf8(pase.replace('xmlns:cfdi="http://www.sat.gob.mx/cfd/4"', 'xmlns:cfdi="http://example.com/cfd/4"'))))).toBe(MSG.cfdiNotCfdi);
    const fakeTfd = pase.replace('xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital"', 'xmlns:tfd="http://example.com/tfd"');
    expect(reasonOf(readCfdi(utf8(fakeTfd)))).toBe(MSG.cfdiNoUuid);
  });

  it('only counts a TFD that is a child of cfdi:Complemento (one copied into an Addenda is not a stamp)', () => {
    const tfd = /<tfd:TimbreFiscalDigital[^>]*\/>/.exec(pase)![0];
    const moved = pase.replace(tfd, '').replace('</cfdi:Comprobante>', `<cfdi:Addenda>${tfd}</cfdi:Addenda></cfdi:Comprobante>`);
    expect(reasonOf(readCfdi(utf8(moved)))).toBe(MSG.cfdiNoUuid);
  });
});

describe('bad input is refused with its reason', () => {
  const cases: [string, Uint8Array, string][] = [
    ['empty file', new Uint8Array(), MSG.cfdiNotXml],
    ['plain text', utf8('hola, esto no es XML'), MSG.cfdiNotXml],
    ['a PDF', utf8('%PDF-1.4\n%âãÏÓ\n1 0 obj'), MSG.cfdiNotXml],
    ['binary junk', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00, 0x9c]), MSG.cfdiNotXml],
    ['Latin-1 bytes', new Uint8Array([...utf8('<?xml version="1.0" encoding="ISO-8859-1"?><a n="'), 0xe9, ...utf8('"/>')]), MSG.cfdiNotUtf8],
    ['UTF-16', new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x61, 0x00]), MSG.cfdiNotUtf8],
    ['another XML', utf8('<?xml version="1.0"?><html><body/></html>'), MSG.cfdiNotCfdi],
    ['unclosed root', utf8(cfdi40().replace('</cfdi:Comprobante>', '')), MSG.cfdiMalformed],
    ['two roots', utf8(`${cfdi40()}<otro/>`), MSG.cfdiMalformed],
    ['undeclared entity', utf8(cfdi40({ root: 'Serie="&lol;"' })), MSG.cfdiMalformed],
    ['unbound prefix', utf8(cfdi40().replace('xmlns:cfdi="http://www.sat.gob.mx/cfd/4"', '')), MSG.cfdiMalformed],
    ['CFDI 3.0', utf8(cfdi40().replace('cfd/4', 'cfd/3').replace('Version="4.0"', 'Version="3.0"')), MSG.cfdiVersion],
    ['4.0 namespace with 3.3', utf8(cfdi40().replace('Version="4.0"', 'Version="3.3"')), MSG.cfdiVersion],
    ['no Emisor', utf8(cfdi40({ body: '<cfdi:Receptor Rfc="XIQB891116QE4"/>' })), `${MSG.cfdiMissing} Emisor`],
    ['no Receptor RFC', utf8(cfdi40({ body: '<cfdi:Emisor Rfc="EKU9003173C9"/><cfdi:Receptor Nombre="X"/>' })), `${MSG.cfdiMissing} Receptor/Rfc`],
    ['Total not a number', utf8(cfdi40().replace('Total="116.00"', 'Total="abc"')), `${MSG.cfdiInvalid} Total`],
    ['no Total', utf8(cfdi40().replace('Total="116.00"', '')), `${MSG.cfdiMissing} Total`],
    ['unknown TipoDeComprobante', utf8(cfdi40().replace('TipoDeComprobante="I"', 'TipoDeComprobante="X"')), `${MSG.cfdiInvalid} TipoDeComprobante`],
    ['no stamp', utf8(cfdi40({ tfd: false })), MSG.cfdiNoUuid],
    ['a UUID that is not one', utf8(cfdi40().replace(TEST_UUID, '9d81c696-0401-4f85-b703-6e0d3afd6056XXX')), MSG.cfdiBadUuid],
    ['the all-zero UUID', utf8(cfdi40().replace(TEST_UUID, '00000000-0000-0000-0000-000000000000')), MSG.cfdiBadUuid],
    ['a UUID without dashes', utf8(cfdi40().replace(TEST_UUID, '9d81c69604014f85b7036e0d3afd6056')), MSG.cfdiBadUuid],
    ['a UUID in braces', utf8(cfdi40().replace(TEST_UUID, '{9d81c696-0401-4f85-b703-6e0d3afd6056}')), MSG.cfdiBadUuid],
    ['a UUID with groups of the wrong length', utf8(cfdi40().replace(TEST_UUID, '9d81c6960-401-4f85-b703-6e0d3afd6056')), MSG.cfdiBadUuid],
  ];
  for (const [name, input, reason] of cases) {
    it(name, () => {
      expect(reasonOf(readCfdi(input))).toBe(reason);
    });
  }

  it('accepts what those cases start from, with a BOM or without', () => {
    const plain = accepted(readCfdi(utf8(cfdi40())));
    expect(plain).toMatchObject({ uuid: TEST_UUID.toUpperCase(), amountMxn: '116.00', tipoCambio: '', formaPago: '' });
    expect(accepted(readCfdi(utf8(`\uFEFF${cfdi40()}`)))).toEqual(plain);
    const pase = bytes('cfdi40-ingreso-real-pase-stamped.xml');
    expect(accepted(readCfdi(new Uint8Array([0xef, 0xbb, 0xbf, ...pase])))).toEqual(read('cfdi40-ingreso-real-pase-stamped.xml'));
  });
});

describe('hostile XML is refused before parsing, fast and with bounded memory', () => {
  const XXE =
    '<?xml version="1.0"?><!DOCTYPE cfdi:Comprobante [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
    '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0"><cfdi:Emisor Nombre="&xxe;"/></cfdi:Comprobante>';
  const laughs = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE lolz [',
    ' <!ENTITY lol "lol">',
    ...Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
    ']>',
    '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Serie="&lol9;"/>',
  ].join('\n');

  function timed(input: Uint8Array): { r: CfdiReadResult; ms: number; heapMb: number } {
    const heap = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const r = readCfdi(input);
    return { r, ms: performance.now() - t0, heapMb: (process.memoryUsage().heapUsed - heap) / 2 ** 20 };
  }

  it('XXE (a SYSTEM entity to /etc/passwd)', () => {
    const { r, ms, heapMb } = timed(utf8(XXE));
    expect(reasonOf(r)).toBe(MSG.cfdiDoctype);
    expect(JSON.stringify(r)).not.toContain('root:');
    expect(ms).toBeLessThan(1000);
    expect(heapMb).toBeLessThan(16);
  });

  it('billion laughs', () => {
    const { r, ms, heapMb } = timed(utf8(laughs));
    expect(reasonOf(r)).toBe(MSG.cfdiDoctype);
    expect(ms).toBeLessThan(1000);
    expect(heapMb).toBeLessThan(16);
  });

  it('any DOCTYPE or ENTITY, in any case, anywhere (even inside a comment or after the root)', () => {
    const base = cfdi40();
    for (const evil of ['<!doctype x>', '<!-- <!ENTITY e "x"> -->', '<!Entity>']) {
      expect(reasonOf(readCfdi(utf8(base.replace('<cfdi:Comprobante', `${evil}<cfdi:Comprobante`))))).toBe(MSG.cfdiDoctype);
      expect(reasonOf(readCfdi(utf8(`${base}${evil}`)))).toBe(MSG.cfdiDoctype);
    }
    expect(hasDtdMarkup(utf8('<!-- x --><![CDATA[y]]><a/>'))).toBe(false);
    expect(hasDtdMarkup(utf8('<!DOCTYP'))).toBe(false);
  });

  it('2 MB + 1 byte, without looking inside', () => {
    const big = new Uint8Array(CFDI_MAX_BYTES + 1).fill(0x20);
    const { r, ms } = timed(big);
    expect(reasonOf(r)).toBe(MSG.cfdiTooLarge);
    expect(ms).toBeLessThan(50);
    // Exactly 2 MB is fine: the real invoice padded with an Addenda up to the limit.
    const pase = text('cfdi40-ingreso-real-pase-stamped.xml');
    const room = CFDI_MAX_BYTES - utf8(pase).byteLength - '<cfdi:Addenda></cfdi:Addenda>'.length;
    const padded = utf8(pase.replace('</cfdi:Comprobante>', `<cfdi:Addenda>${' '.repeat(room)}</cfdi:Addenda></cfdi:Comprobante>`));
    expect(padded.byteLength).toBe(CFDI_MAX_BYTES);
    expect(accepted(readCfdi(padded)).uuid).toBe('C2832671-DA6D-11EF-A83D-00155D012007');
  });

  it('2 MB of character references or of elements, under the limit: parsed in seconds, not minutes', () => {
    const refs = utf8(cfdi40({ root: `Serie="${'&#65;'.repeat(400_000)}"` }));
    expect(refs.byteLength).toBeLessThan(CFDI_MAX_BYTES);
    const a = timed(refs);
    expect(a.r.ok && a.r.cfdi.serie.length).toBe(400_000);
    // Bounds ten times the quiet-machine figure: they catch a quadratic parser (minutes), not a busy machine.
    expect(a.ms).toBeLessThan(10_000);
    expect(a.heapMb).toBeLessThan(64);

    const wide = utf8(cfdi40().replace('</cfdi:Comprobante>', `<cfdi:Addenda>${'<a/>'.repeat(500_000)}</cfdi:Addenda></cfdi:Comprobante>`));
    expect(wide.byteLength).toBeLessThan(CFDI_MAX_BYTES);
    const b = timed(wide);
    expect(b.r.ok).toBe(true);
    expect(b.ms).toBeLessThan(20_000);
  });

  it('deep nesting stops at MAX_DEPTH (saxes would spend minutes on 150,000 levels)', () => {
    const depth = 150_000;
    const nested = utf8(cfdi40().replace('</cfdi:Comprobante>', `<cfdi:Addenda>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</cfdi:Addenda></cfdi:Comprobante>`));
    expect(nested.byteLength).toBeLessThan(CFDI_MAX_BYTES);
    const { r, ms } = timed(nested);
    expect(reasonOf(r)).toBe(MSG.cfdiTooDeep);
    expect(ms).toBeLessThan(200);
    // Nesting up to the limit is fine.
    const ok = MAX_DEPTH - 2; // Comprobante > Addenda > a × 62
    const fine = cfdi40().replace('</cfdi:Comprobante>', `<cfdi:Addenda>${'<a>'.repeat(ok)}${'</a>'.repeat(ok)}</cfdi:Addenda></cfdi:Comprobante>`);
    expect(readCfdi(utf8(fine)).ok).toBe(true);
    const tooDeep = fine.replace('<cfdi:Addenda>', '<cfdi:Addenda><a>').replace('</cfdi:Addenda>', '</a></cfdi:Addenda>');
    expect(reasonOf(readCfdi(utf8(tooDeep)))).toBe(MSG.cfdiTooDeep);
  });
});
