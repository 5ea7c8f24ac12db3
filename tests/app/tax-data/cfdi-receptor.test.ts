import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CFDI_MSG,
  checkCfdiFile,
  checkCfdiText,
  draftFromReceptor,
  readReceptor,
  splitPersonName,
  type XmlDocumentLike,
  type XmlElementLike,
} from '../../../src/app/tax-data/cfdi-receptor';
import { EMPTY_TAX_DRAFT } from '../../../src/app/tax-data/tax-draft';
import { MSG } from '../../../src/domain/messages';

const FIXTURES = fileURLToPath(new URL('../../fixtures/cfdi', import.meta.url));

/** A minimal stand-in for DOMParser (jsdom/xmldom are not installed): enough of the DOM for readReceptor. */
function fakeDocument(xml: string): XmlDocumentLike {
  const namespaces = new Map<string, string>();
  for (const m of xml.matchAll(/xmlns:([\w-]+)="([^"]+)"/g)) namespaces.set(m[1]!, m[2]!);
  const receptors: XmlElementLike[] = [];
  for (const m of xml.matchAll(/<([\w-]+):Receptor\b([^>]*)>/g)) {
    const attrs = new Map<string, string>();
    for (const a of m[2]!.matchAll(/([\w:]+)="([^"]*)"/g)) attrs.set(a[1]!, a[2]!);
    receptors.push({ namespaceURI: namespaces.get(m[1]!) ?? null, getAttribute: (n) => attrs.get(n) ?? null });
  }
  return {
    getElementsByTagNameNS: (_ns, local) => (local === 'Receptor' ? receptors : []),
    getElementsByTagName: () => [],
  };
}

const fixture = (name: string) => readFileSync(`${FIXTURES}/${name}`, 'utf8');

describe('reading the receptor of real CFDI files', () => {
  it('CFDI 4.0 company receptor → EMPRESA tab with the razón social, postal code and regime', () => {
    const r = readReceptor(fakeDocument(fixture('cfdi40-ingreso-acuentaterceros-sw-stamped.xml')));
    expect(r).toMatchObject({ rfc: 'URE180429TM6', nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', domicilioFiscal: '65000', regimenFiscal: '601' });
    const result = draftFromReceptor(r!, EMPTY_TAX_DRAFT);
    expect(result).toEqual({
      draft: { ...EMPTY_TAX_DRAFT, type: 'empresa', rfc: 'URE180429TM6', name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', postalCode: '65000', taxRegime: '601' },
    });
  });

  it('CFDI 3.3 person receptor → PERSONA tab, last two words as Apellidos', () => {
    const r = readReceptor(fakeDocument(fixture('cfdi33-ingreso-traslados-retenciones-stamped.xml')));
    const result = draftFromReceptor(r!, EMPTY_TAX_DRAFT);
    expect(result).toEqual({
      draft: { ...EMPTY_TAX_DRAFT, type: 'persona', rfc: 'COSC8001137NA', firstName: 'CARLOS', lastName: 'CORTES SOTO' },
    });
  });

  it('a foreign receptor → EXTRANJERO tab with residencia fiscal and NumRegIdTrib', () => {
    const r = readReceptor(fakeDocument(fixture('cfdi40-pago20-usd-extranjero-unsigned.xml')));
    const result = draftFromReceptor(r!, { ...EMPTY_TAX_DRAFT, rfc: 'TYPED010101AAA' });
    expect(result).toEqual({
      draft: { ...EMPTY_TAX_DRAFT, rfc: 'TYPED010101AAA', type: 'extranjero', name: 'FOREIGN COMPANY INC', country: 'PER', taxId: '20000123456' },
    });
  });

  it('payroll CFDI: takes the cfdi:Receptor, not the nomina12:Receptor', () => {
    const r = readReceptor(fakeDocument(fixture('cfdi40-nomina12-sw-stamped.xml')));
    expect(r?.rfc).toBe('XOJI740919U48');
  });

  it('the generic public RFC has the persona shape, so it opens the PERSONA tab', () => {
    const r = readReceptor(fakeDocument(fixture('cfdi33-ingreso-publico-general-detallista-stamped.xml')));
    expect(draftFromReceptor(r!, EMPTY_TAX_DRAFT)).toEqual({ draft: expect.objectContaining({ type: 'persona', rfc: 'XAXX010101000' }) });
  });

  it('an unrecognisable RFC gives the spec message and keeps the draft untouched', () => {
    expect(draftFromReceptor({ rfc: 'NOPE', nombre: 'X', residenciaFiscal: '', numRegIdTrib: '', domicilioFiscal: '', regimenFiscal: '' }, EMPTY_TAX_DRAFT)).toEqual({ error: MSG.rfcInvalid });
  });

  it('a document without a CFDI receptor, or with a parser error, reads as nothing', () => {
    expect(readReceptor(fakeDocument('<root xmlns:x="urn:x"><x:Receptor Rfc="ABC010203XY1"/></root>'))).toBeNull();
    const broken: XmlDocumentLike = { getElementsByTagNameNS: () => [], getElementsByTagName: (n) => (n === 'parsererror' ? [{}] : []) };
    expect(readReceptor(broken)).toBeNull();
  });
});

describe('file checks before parsing', () => {
  it('only .xml files up to 1 MB', () => {
    expect(checkCfdiFile({ name: 'factura.XML', size: 1000 })).toBeNull();
    expect(checkCfdiFile({ name: 'factura.pdf', size: 1000 })).toBe(CFDI_MSG.notXml);
    expect(checkCfdiFile({ name: 'factura.xml', size: 1024 * 1024 + 1 })).toBe(CFDI_MSG.tooBig);
  });

  it('refuses DTDs and entities, accepts the real fixtures', () => {
    expect(checkCfdiText('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>')).toBe(CFDI_MSG.unsafe);
    expect(checkCfdiText('<!entity a SYSTEM "file:///etc/passwd">')).toBe(CFDI_MSG.unsafe);
    expect(checkCfdiText(fixture('cfdi40-ingreso-real-pase-stamped.xml'))).toBeNull();
  });
});

describe('splitPersonName', () => {
  it('Nombre = all but the last two words, Apellidos = the last two', () => {
    expect(splitPersonName('MARIA DEL CARMEN LOPEZ PEREZ')).toEqual({ firstName: 'MARIA DEL CARMEN', lastName: 'LOPEZ PEREZ' });
    expect(splitPersonName('ANA LOPEZ')).toEqual({ firstName: 'ANA', lastName: 'LOPEZ' });
    expect(splitPersonName('  ')).toEqual({ firstName: '', lastName: '' });
  });
});
