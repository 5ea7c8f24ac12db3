// The integrity checks an imported CFDI gets (verify-seals.ts): every fixture with the outcome its
// provenance (tests/fixtures/cfdi/SOURCES.md) predicts, a one-byte alteration, sandbox-stamped
// invoices whose timbre we can check, forged certificates and stamping certificates added by setting.
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cadenaOriginal, findTimbre, parseSatXml } from '../../../src/server/cfdi/cadena';
import { issueSandboxCfdi } from '../../../src/server/cfdi/issue';
import { detachedLight, parseLightXml } from '../../../src/server/cfdi/light-xml';
import { readCfdiAndTree } from '../../../src/server/cfdi/read';
import { checkCfdi40 } from '../../../src/server/cfdi/rules';
import { SandboxPac } from '../../../src/server/cfdi/sandbox-pac';
import { openTestCsd } from '../../../src/server/cfdi/seal';
import { cfdiChecks, loadPacCertificates, verifySeals, type SealChecks } from '../../../src/server/cfdi/verify-seals';
import { CSD_DIR, fixture, fixtureNames, removeScratch, sampleInput } from './sat-tools';

afterAll(removeScratch);

const VALID_SEAL_ONLY: SealChecks = { seal: 'valido', sealSat: 'sin_verificar' };
const ALTERED: SealChecks = { seal: 'invalido', sealSat: 'sin_verificar' };
const UNSIGNED: SealChecks = { seal: 'sin_sello', sealSat: 'sin_verificar' };
const UNCHECKED: SealChecks = { seal: 'sin_verificar', sealSat: 'sin_verificar' };

/**
 * Per fixture, what SOURCES.md says of it. None of their timbres can be checked here: they were stamped
 * with SAT's certificates (production 00001…, test 30001000000500003456 and older), which we do not ship.
 */
const EXPECTED: Record<string, SealChecks> = {
  'cfdi32-ingreso-real-legacy-stamped.xml': UNCHECKED, // 3.2: SHA-1, not checked
  'cfdi33-ingreso-multiples-tasas-stamped.xml': VALID_SEAL_ONLY,
  'cfdi33-ingreso-publico-general-detallista-stamped.xml': VALID_SEAL_ONLY,
  'cfdi33-ingreso-real-implocal-stamped.xml': VALID_SEAL_ONLY,
  'cfdi33-ingreso-traslados-retenciones-stamped.xml': ALTERED, // its Sello verifies, but its timbre's SelloCFD is another's
  'cfdi33-ingreso-usd-tipocambio-unstamped.xml': VALID_SEAL_ONLY,
  'cfdi33-pago10-stamped.xml': ALTERED, // "Sello did not verify"
  'cfdi40-ingreso-acuentaterceros-sw-stamped.xml': ALTERED, // edited after stamping
  'cfdi40-ingreso-eku-descuento-stamped.xml': VALID_SEAL_ONLY,
  'cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml': VALID_SEAL_ONLY,
  'cfdi40-ingreso-iva8-frontera-simulated-tfd.xml': VALID_SEAL_ONLY,
  'cfdi40-ingreso-noobjeto-simulated-tfd.xml': VALID_SEAL_ONLY,
  'cfdi40-ingreso-real-pase-stamped.xml': VALID_SEAL_ONLY,
  'cfdi40-ingreso-real-resico626-stamped.xml': VALID_SEAL_ONLY,
  'cfdi40-ingreso-retenciones-sw-stamped.xml': VALID_SEAL_ONLY,
  'cfdi40-ingreso-usd-tipocambio-unstamped.xml': VALID_SEAL_ONLY,
  'cfdi40-nomina12-demo-unsigned.xml': UNSIGNED,
  'cfdi40-nomina12-sw-stamped.xml': VALID_SEAL_ONLY,
  'cfdi40-pago20-iva16-simulated-tfd.xml': ALTERED, // simulated TFD whose SelloCFD ≠ Sello
  'cfdi40-pago20-sw-stamped.xml': VALID_SEAL_ONLY,
  'cfdi40-pago20-unstamped.xml': VALID_SEAL_ONLY,
  'cfdi40-pago20-usd-extranjero-unsigned.xml': UNSIGNED,
  'cfdi40-pago20-usd-pays-mxn-docs-unsigned.xml': UNSIGNED,
  'edge-cfdi33-sello-with-line-breaks-stamped.xml': ALTERED, // "the comprobante Sello does not verify"
  'edge-cfdi40-multiple-tfd-addenda-random-values.xml': ALTERED, // random values
  'invalid-cfdi33-malformed-xml.xml': UNCHECKED, // not XML
  'invalid-cfdi33-pago10-sample-errors.xml': ALTERED, // Certificado holds base64 of PEM text, not of the DER
  'invalid-cfdi33-registro-fiscal-fake-rfcs.xml': UNSIGNED,
  'invalid-cfdi40-bom-nonsense-values-fake-tfd.xml': VALID_SEAL_ONLY, // "surprisingly, its Sello verifies"
  'invalid-cfdi40-malformed-random-values.xml': UNCHECKED, // not XML
  'invalid-cfdi40-pagos-in-ingreso-bad-version.xml': ALTERED, // "Sello fails"
  'retenciones20-foreign-min-fake.xml': UNCHECKED, // not a Comprobante
  'retenciones20-mexican-min-fake.xml': UNCHECKED,
  'retenciones20-stamped.xml': UNCHECKED,
};

const bytes = (s: string) => new TextEncoder().encode(s);
/** The public fixtures SOURCES.md describes ('ours-…' files are made by the project for other tests). */
const publicFixtures = () => fixtureNames().filter((n) => !n.startsWith('ours-'));
const EKU = openTestCsd('EKU9003173C9');
/** Stamped seconds after sampleInput's Fecha (2026-05-01 12:00 at 42501, UTC-6): a PAC stamps within 72 hours. */
const STAMPED_AT = new Date('2026-05-01T18:00:10Z');

describe('verifySeals on the fixtures', () => {
  it('has an expectation for every fixture', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(publicFixtures());
  });

  it.each(publicFixtures())('%s', (name) => {
    expect(verifySeals(bytes(fixture(name)))).toEqual(EXPECTED[name]);
  });

  it('takes text and bytes alike', () => {
    const xml = fixture('cfdi40-ingreso-real-pase-stamped.xml');
    expect(verifySeals(xml)).toEqual(verifySeals(bytes(xml)));
  });
});

describe('an altered CFDI', () => {
  const original = fixture('cfdi40-ingreso-real-pase-stamped.xml');

  it.each([
    ['Total', /Total="1000\.00"/, 'Total="1000.01"'],
    ['the receiver\'s name', /(<cfdi:Receptor\b[^>]*\sNombre=")(.)/, (_m: string, pre: string, c: string) => pre + (c === 'A' ? 'B' : 'A')],
    ['a concept\'s description', /(Descripcion=")(.)/, (_m: string, pre: string, c: string) => pre + (c === 'X' ? 'Y' : 'X')],
  ] as const)('one byte changed in %s: invalido', (_what, pattern, replacement) => {
    const altered = original.replace(pattern, replacement as string);
    expect(altered).not.toBe(original);
    expect(altered.length).toBe(original.length);
    expect(verifySeals(bytes(altered))).toEqual(ALTERED);
  });

  it('a Sello that is not base64, or signs with the wrong certificate: invalido', () => {
    expect(verifySeals(original.replace(/ Sello="[^"]*"/, ' Sello="no es base64 !!"')).seal).toBe('invalido');
    // Another real certificate whose serial is not the NoCertificado written.
    const other = openTestCsd('XIQB891116QE4').certificado;
    expect(verifySeals(original.replace(/ Certificado="[^"]*"/, ` Certificado="${other}"`)).seal).toBe('invalido');
    expect(verifySeals(original.replace(/ Certificado="[^"]*"/, ' Certificado="AAAA"')).seal).toBe('invalido');
  });

  it('an empty Sello: sin_sello', () => {
    expect(verifySeals(original.replace(/ Sello="[^"]*"/, ' Sello=""')).seal).toBe('sin_sello');
  });

  it('hostile or foreign input is never judged valid, and never throws', () => {
    for (const input of ['', 'not xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', '<a/>', original.slice(0, 500)]) {
      expect(verifySeals(bytes(input))).toEqual(UNCHECKED);
    }
    expect(verifySeals(new Uint8Array([0xff, 0xfe, 0x00, 0x3c]))).toEqual(UNCHECKED);
  });
});

describe('a CFDI stamped by our sandbox PAC', () => {
  it('has both seals valid: the timbre is checked with the certificate we ship', async () => {
    const { xml } = await issueSandboxCfdi(sampleInput(), EKU, { at: STAMPED_AT });
    expect(verifySeals(bytes(xml))).toEqual({ seal: 'valido', sealSat: 'valido' });
  });

  it('an altered timbre fails SelloSAT; a timbre moved to another document fails the Sello', async () => {
    const { xml } = await issueSandboxCfdi(sampleInput(), EKU, { at: STAMPED_AT });
    const fecha = /FechaTimbrado="([^"]*)"/.exec(xml)![1]!;
    const later = fecha.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    expect(verifySeals(xml.replace(`FechaTimbrado="${fecha}"`, `FechaTimbrado="${later}"`))).toEqual({ seal: 'valido', sealSat: 'invalido' });
    expect(verifySeals(xml.replace(/ SelloSAT="[^"]*"/, ' SelloSAT=""')).sealSat).toBe('invalido');

    const other = await issueSandboxCfdi(sampleInput({ folio: '124' }), EKU, { at: STAMPED_AT });
    const timbreOf = (x: string) => /<tfd:TimbreFiscalDigital\b[^>]*\/>/.exec(x)![0];
    const grafted = xml.replace(timbreOf(xml), timbreOf(other.xml));
    expect(verifySeals(grafted)).toEqual({ seal: 'invalido', sealSat: 'valido' });
  });

  it('a forged certificate under a known serial neither passes nor evicts the real one from the cache', async () => {
    const { xml } = await issueSandboxCfdi(sampleInput(), EKU, { at: STAMPED_AT });
    const forged = xml.replace(/ Certificado="[^"]*"/, ` Certificado="${openTestCsd('XIQB891116QE4').certificado}"`);
    expect(verifySeals(forged).seal).toBe('invalido');
    expect(verifySeals(xml).seal).toBe('valido');
    expect(verifySeals(forged).seal).toBe('invalido');
  });
});

describe('stamping certificates', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });

  it('a timbre signed by a PAC certificate we lack is sin_verificar; its .cer in a folder makes it checkable', async () => {
    // A "PAC" that signs with EKU's test CSD: not among the certificates we ship.
    const pac = new SandboxPac({ csd: EKU });
    const { xml } = await issueSandboxCfdi(sampleInput(), EKU, { pac, at: STAMPED_AT });
    expect(verifySeals(xml)).toEqual(VALID_SEAL_ONLY);

    const dir = mkdtempSync(join(tmpdir(), 'cc-sat-certs-'));
    dirs.push(dir);
    copyFileSync(join(CSD_DIR, 'EKU9003173C9.csd.cer'), join(dir, 'pac.cer'));
    writeFileSync(join(dir, 'roto.cer'), 'no es un certificado');
    writeFileSync(join(dir, 'notas.txt'), 'ignorado');
    const certs = loadPacCertificates([dir]);
    expect([...certs.keys()]).toEqual(['30001000000500003416']); // by its serial, not its file name
    expect(verifySeals(xml, { pacCertificates: certs })).toEqual({ seal: 'valido', sealSat: 'valido' });
  });

  it('SAT_CERTS_DIR adds certificates to those shipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-sat-certs-'));
    dirs.push(dir);
    copyFileSync(join(CSD_DIR, 'EKU9003173C9.csd.cer'), join(dir, 'pac.cer'));
    vi.stubEnv('SAT_CERTS_DIR', dir);
    vi.resetModules();
    const fresh = await import('../../../src/server/cfdi/verify-seals');
    const { xml: ours } = await issueSandboxCfdi(sampleInput(), EKU, { at: STAMPED_AT });
    const { xml: theirs } = await issueSandboxCfdi(sampleInput(), EKU, { pac: new SandboxPac({ csd: EKU }), at: STAMPED_AT });
    expect(fresh.verifySeals(theirs)).toEqual({ seal: 'valido', sealSat: 'valido' });
    expect(fresh.verifySeals(ours)).toEqual({ seal: 'valido', sealSat: 'valido' });
  });
});

describe('cfdiChecks: what import stores', () => {
  it('adds SAT\'s CFDI 4.0 findings without the Sello rule, which the seal already reports', () => {
    for (const name of publicFixtures()) {
      const checks = cfdiChecks(bytes(fixture(name)));
      expect({ name, seal: checks.seal, sealSat: checks.sealSat }).toEqual({ name, ...EXPECTED[name] });
      expect(checks.findings.map((f) => f.code)).not.toContain('CFDI40102');
      expect(checks.findings.map((f) => f.code)).not.toContain('CFDI40106');
    }
    const altered = cfdiChecks(bytes(fixture('cfdi40-ingreso-acuentaterceros-sw-stamped.xml')));
    expect(altered).toEqual({ ...ALTERED, findings: [] });
    // Its issuer, a persona moral (H&E951128469), declares régimen 606, which is for personas físicas: CFDI40141.
    const regime = cfdiChecks(bytes(fixture('cfdi40-pago20-iva16-simulated-tfd.xml')));
    expect(regime.findings).toEqual([{ code: 'CFDI40141', message: expect.stringMatching(/\S/) }]);
    // Random values break many rules, each once, in code order, with a Spanish explanation.
    const random = cfdiChecks(bytes(fixture('edge-cfdi40-multiple-tfd-addenda-random-values.xml'))).findings;
    expect(random.length).toBeGreaterThan(10);
    expect(random.map((f) => f.code)).toEqual([...new Set(random.map((f) => f.code))].sort());
  });

  it('an invoice we issue has both seals valid and no findings; a stamped CFDI is not judged by the 72-hour window', async () => {
    const { xml } = await issueSandboxCfdi(sampleInput({ fecha: '2024-01-10T10:00:00' }), EKU, { at: new Date('2024-01-10T16:00:10Z') });
    expect(cfdiChecks(xml)).toEqual({ seal: 'valido', sealSat: 'valido', findings: [] });
  });

  it('not XML: unchecked, no findings', () => {
    expect(cfdiChecks(bytes('<<<'))).toEqual({ ...UNCHECKED, findings: [] });
  });
});

describe('the light tree the checks parse into (light-xml.ts)', () => {
  const both = (xml: string) => ({ light: parseLightXml(xml), dom: (() => { try { return parseSatXml(xml); } catch { return null; } })() });
  const cadenaOf = (doc: Parameters<typeof cadenaOriginal>[0]) => { try { return cadenaOriginal(doc); } catch (e) { return `error: ${(e as Error).message}`; } };

  it.each(fixtureNames())('%s: same cadenas (CFDI and timbre) and the same rule findings as with xmldom', (name) => {
    const { light, dom } = both(fixture(name));
    expect(light === null).toBe(dom === null);
    if (!light || !dom) return;
    expect(cadenaOf(light)).toBe(cadenaOf(dom));
    const t1 = findTimbre(light);
    const t2 = findTimbre(dom);
    expect(t1 === undefined).toBe(t2 === undefined);
    if (t1 && t2) expect(cadenaOriginal(detachedLight(t1)!, 'tfd11')).toBe(cadenaOriginal(t2, 'tfd11'));
    expect(checkCfdi40(light, { skipSeal: true })).toEqual(checkCfdi40(dom, { skipSeal: true }));
  });

  it.each(fixtureNames())('%s: the reader\'s own parse (readCfdiAndTree) builds the same tree: same checks', (name) => {
    const xml = fixture(name);
    const { read, doc } = readCfdiAndTree(new TextEncoder().encode(xml));
    if (!read.ok) {
      expect(doc).toBeNull();
      return;
    }
    expect(doc).not.toBeNull();
    const light = parseLightXml(xml)!;
    expect(cadenaOf(doc!)).toBe(cadenaOf(light));
    expect(cfdiChecks(doc!)).toEqual(cfdiChecks(xml));
  });

  it('refuses what parseSatXml refuses: DOCTYPE, entities, unbound prefixes, broken markup, absurd depth', () => {
    for (const xml of [
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',
      '<a><b></a>',
      '<p:a/>',
      '<a b="1" b="2"/>',
      '<a>&nope;</a>',
      `${'<a>'.repeat(100)}${'</a>'.repeat(100)}`,
      '',
    ]) expect(parseLightXml(xml)).toBeNull();
    const root = parseLightXml('\ufeff<a x="1">t<![CDATA[c]]></a>')?.documentElement;
    expect(root?.getAttribute('x')).toBe('1');
    // Attribute lookups see the element's own attributes only, never inherited object properties.
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect(root?.getAttribute(name)).toBeNull();
      expect(root?.getAttributeNode(name)).toBeNull();
    }
  });
});
