// Our cadena original against SAT's stylesheets run by xsltproc, on every fixture and on what we
// generate. Skipped: CFDI 3.2 (its stylesheet needs named templates with parameters and xsl:choose,
// which the table does not compile; 3.2 is import-only and marked as old) — its TFD 1.0 is checked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLSerializer } from '@xmldom/xmldom';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCfdi, IVA_16 } from '../../../src/server/cfdi/build';
import {
  cadenaOriginal, CfdiXmlError, findTimbre, MAX_XML_CHARS, NS_TFD, parseSatXml, stylesheetFor, type StylesheetId,
} from '../../../src/server/cfdi/cadena';
import { issueSandboxCfdi } from '../../../src/server/cfdi/issue';
import { openTestCsd, sealCfdi } from '../../../src/server/cfdi/seal';
import { makeCadenaTable, TABLE_FILE } from '../../tools/make-cadena-table';
import { CFDI_DIR, fixture, fixtureNames, sampleInput, xsltproc, xsltprocText, removeScratch } from './sat-tools';

afterAll(removeScratch);

const serialize = (n: Parameters<XMLSerializer['serializeToString']>[0]) => new XMLSerializer().serializeToString(n);

/** Fixtures libxml2 itself refuses as not well-formed. */
const MALFORMED = ['invalid-cfdi33-malformed-xml.xml', 'invalid-cfdi40-malformed-random-values.xml'];
const CFDI32 = 'cfdi32-ingreso-real-legacy-stamped.xml';

describe('the compiled table', () => {
  it('is what SAT\'s stylesheets compile to today (regenerate with tests/tools/make-cadena-table.ts)', () => {
    expect(readFileSync(TABLE_FILE, 'utf8')).toBe(makeCadenaTable());
  });
});

describe('cadena original = xsltproc with SAT\'s XSLT, on every fixture', () => {
  const names = fixtureNames().filter((n) => !MALFORMED.includes(n) && n !== CFDI32);

  it('covers the fixture set (3.3, 4.0, Pagos 1.0/2.0, Nómina 1.2, ImpuestosLocales, detallista, Retenciones 2.0)', () => {
    expect(names.length).toBeGreaterThanOrEqual(31);
    const ids = names.map((n) => stylesheetFor(parseSatXml(fixture(n)).documentElement!));
    expect(new Set(ids)).toEqual(new Set<StylesheetId>(['cfdi33', 'cfdi40', 'ret20']));
  });

  it.each(names)('%s', (name) => {
    const doc = parseSatXml(fixture(name));
    const id = stylesheetFor(doc.documentElement!);
    const ours = cadenaOriginal(doc);
    expect(ours).toBe(xsltproc(id, join(CFDI_DIR, name)));
    expect(ours.startsWith('||') && ours.endsWith('||')).toBe(true);
  });

  it.each(fixtureNames().filter((n) => !MALFORMED.includes(n)))('timbres of %s', (name) => {
    const doc = parseSatXml(fixture(name));
    const tfds = Array.from(doc.getElementsByTagNameNS(NS_TFD, 'TimbreFiscalDigital'))
      .filter((t) => t.getAttribute('Version') === '1.1' || t.getAttribute('version') === '1.0');
    for (const [i, tfd] of tfds.entries()) {
      const id = stylesheetFor(tfd);
      expect(cadenaOriginal(tfd)).toBe(xsltprocText(id, serialize(tfd), `tfd-${i}.xml`));
    }
  });

  it('finds the first TFD 1.1 of a stamped CFDI (the file with two timbres included)', () => {
    const doc = parseSatXml(fixture('edge-cfdi40-multiple-tfd-addenda-random-values.xml'));
    expect(findTimbre(doc)?.getAttribute('UUID')).toBe(doc.getElementsByTagNameNS(NS_TFD, 'TimbreFiscalDigital').item(0)?.getAttribute('UUID'));
    expect(findTimbre(parseSatXml(fixture('cfdi40-pago20-unstamped.xml')))).toBeUndefined();
  });

  it('is the same before and after stamping, and the Addenda counts for nothing', () => {
    const stamped = parseSatXml(fixture('cfdi40-ingreso-real-pase-stamped.xml'));
    const root = stamped.documentElement!;
    const before = cadenaOriginal(stamped);
    for (const el of Array.from(root.getElementsByTagNameNS(root.namespaceURI, 'Complemento'))) root.removeChild(el);
    expect(cadenaOriginal(stamped)).toBe(before);
    const addenda = stamped.createElementNS(root.namespaceURI, 'cfdi:Addenda');
    addenda.appendChild(stamped.createTextNode('libre | texto'));
    root.appendChild(addenda);
    expect(cadenaOriginal(stamped)).toBe(before);
  });
});

describe('XSLT corner cases, checked against xsltproc', () => {
  // An optional attribute present but empty still gives "|"; a required one absent gives "|" too;
  // normalize-space collapses tab/CR/LF/space only (not NBSP); an element without a template
  // (the unknown complement) falls to XSLT's built-in rules and its text is copied as is.
  const tricky = `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:otro="urn:otro" Version="4.0" Serie="" Fecha="2026-05-01T12:00:00"
  NoCertificado="30001000000500003416" SubTotal="10.00" Moneda="MXN" Total="11.60" TipoDeComprobante="I" Exportacion="01" LugarExpedicion="42501">
  <!-- comentario -->
  <cfdi:Emisor Rfc="EKU9003173C9" Nombre="  ESCUELA&#9;KEMPER&#10;&#13;URGATE  " RegimenFiscal="601"/>
  <cfdi:Receptor Rfc="XIQB891116QE4" Nombre="BERENICE&#160;XIMO  QUEZADA" DomicilioFiscalReceptor="88965" RegimenFiscalReceptor="612" UsoCFDI="G03"/>
  <cfdi:Conceptos>
    <cfdi:Concepto ClaveProdServ="01010101" Cantidad="1" ClaveUnidad="ACT" Descripcion="Venta &amp; más &lt;1&gt; &quot;ñ&quot;" ValorUnitario="10.00" Importe="10.00" ObjetoImp="02">
      <cfdi:Impuestos><cfdi:Traslados><cfdi:Traslado Base="10.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="1.60"/></cfdi:Traslados></cfdi:Impuestos>
    </cfdi:Concepto>
  </cfdi:Conceptos>
  <cfdi:Impuestos TotalImpuestosTrasladados="1.60"><cfdi:Traslados><cfdi:Traslado Base="10.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="1.60"/></cfdi:Traslados></cfdi:Impuestos>
  <cfdi:Complemento>
    <otro:Desconocido A="no sale">
      texto <otro:Hijo>visible</otro:Hijo><![CDATA[ y <crudo> ]]>
    </otro:Desconocido>
  </cfdi:Complemento>
  <cfdi:Addenda><otro:Nada>nunca</otro:Nada></cfdi:Addenda>
</cfdi:Comprobante>`;

  it('matches xsltproc byte for byte', () => {
    const ours = cadenaOriginal(tricky);
    expect(ours).toBe(xsltprocText('cfdi40', tricky, 'tricky.xml'));
    expect(ours).toContain('||4.0||2026-05-01T12:00:00|');
    expect(ours).toContain('|ESCUELA KEMPER URGATE|');
    expect(ours).toContain('|BERENICE\u00a0XIMO QUEZADA|');
    expect(ours).toContain('visible');
    expect(ours).not.toContain('nunca');
  });
});

describe('generated documents', () => {
  const csd = openTestCsd('EKU9003173C9');

  it('the builder\'s XML, sealed and stamped, gives xsltproc\'s cadenas (comprobante and timbre)', async () => {
    const inputs = [
      sampleInput(),
      sampleInput({ serie: undefined, folio: undefined, moneda: 'USD', tipoCambio: '17.2345', conceptos: [
        { claveProdServ: '43211500', cantidad: '1.5', claveUnidad: 'H87', descripcion: 'Teclado   inalámbrico ', valorUnitario: '19.999999', descuento: '1.00', objetoImp: '02', traslados: [IVA_16], retenciones: [{ impuesto: '001', tipoFactor: 'Tasa', tasaOCuota: '0.012500' }] },
        { claveProdServ: '01010101', cantidad: 1, claveUnidad: 'ACT', descripcion: 'Sin impuestos', valorUnitario: 5, objetoImp: '01' },
      ] }),
    ];
    for (const [i, input] of inputs.entries()) {
      const { xml } = await issueSandboxCfdi(input, csd);
      expect(cadenaOriginal(xml)).toBe(xsltprocText('cfdi40', xml, `gen-${i}.xml`));
      const tfd = findTimbre(parseSatXml(xml))!;
      expect(cadenaOriginal(tfd)).toBe(xsltprocText('tfd11', serialize(tfd), `gen-tfd-${i}.xml`));
    }
  });

  it('an unsealed build has the same cadena as the sealed one (Sello and Certificado are not in it)', () => {
    const sealed = sealCfdi(sampleInput(), csd);
    const unsealed = buildCfdi(sampleInput(), { noCertificado: csd.noCertificado, certificado: csd.certificado });
    expect(cadenaOriginal(unsealed)).toBe(sealed.cadena);
    expect(sealed.cadena).toBe(cadenaOriginal(sealed.xml));
  });
});

describe('reading XML safely', () => {
  it('refuses a DOCTYPE or an ENTITY (no entity expansion, no external fetch)', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><r>&b;</r>';
    expect(() => parseSatXml(bomb)).toThrow(CfdiXmlError);
    expect(() => cadenaOriginal('<!doctype x SYSTEM "file:///etc/passwd"><x/>')).toThrow(/DOCTYPE/);
  });

  it('refuses malformed XML, too much XML, and documents with no SAT stylesheet', () => {
    for (const name of MALFORMED) expect(() => parseSatXml(fixture(name))).toThrow(CfdiXmlError);
    expect(() => parseSatXml('x'.repeat(MAX_XML_CHARS + 1))).toThrow(/too large/);
    expect(() => cadenaOriginal(fixture(CFDI32))).toThrow(expect.objectContaining({ problem: 'unsupported' }));
    expect(() => cadenaOriginal('<otro/>')).toThrow(expect.objectContaining({ problem: 'unsupported' }));
  });

  it('accepts a leading BOM and CRLF line ends (the BOM fixture)', () => {
    const name = 'invalid-cfdi40-bom-nonsense-values-fake-tfd.xml';
    expect(fixture(name).charCodeAt(0)).toBe(0xfeff);
    expect(cadenaOriginal(fixture(name))).toBe(xsltproc('cfdi40', join(CFDI_DIR, name)));
  });
});
