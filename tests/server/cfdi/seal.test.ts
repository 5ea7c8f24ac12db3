// Sello and timbre: checked with node:crypto and the certificates themselves, not with our helpers
// alone; SAT's deterministic PKCS#1 v1.5 lets us reproduce real fixtures' seals exactly.
import { createVerify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCfdi, IVA_16, type CfdiInput } from '../../../src/server/cfdi/build';
import { cadenaOriginal, findTimbre, parseSatXml } from '../../../src/server/cfdi/cadena';
import { issueSandboxCfdi } from '../../../src/server/cfdi/issue';
import { PacError } from '../../../src/server/cfdi/pac';
import { SandboxPac } from '../../../src/server/cfdi/sandbox-pac';
import { checkCfdiSello, checkTimbre, Csd, openTestCsd, sealCfdi, type TestCsdName } from '../../../src/server/cfdi/seal';
import { CSD_DIR, fixture, sampleInput, removeScratch } from './sat-tools';

afterAll(removeScratch);

const SOURCES_MD = readFileSync(join(CSD_DIR, 'SOURCES.md'), 'utf8');

/** Verifies with node:crypto only: base64 SHA256withRSA of the UTF-8 cadena. */
function nodeVerifies(cadena: string, sello: string, certificadoBase64: string): boolean {
  const cert = new X509Certificate(Buffer.from(certificadoBase64, 'base64'));
  return createVerify('RSA-SHA256').update(Buffer.from(cadena, 'utf8')).verify(cert.publicKey, sello, 'base64');
}

const attrOf = (xml: string, name: string) => parseSatXml(xml).documentElement!.getAttribute(name)!;

describe('the test CSDs', () => {
  it.each<[TestCsdName, string]>([
    ['EKU9003173C9', '30001000000500003416'],
    ['XIQB891116QE4', '30001000000400002336'],
    ['CSD01_AAA010101AAA', '30001000000300023708'],
  ])('%s: NoCertificado %s, as SOURCES.md says; Certificado is the .cer DER in base64', (name, noCertificado) => {
    const csd = openTestCsd(name);
    expect(csd.noCertificado).toBe(noCertificado);
    expect(SOURCES_MD).toContain(`${name}.csd.cer / .key`);
    expect(SOURCES_MD).toContain(`| ${noCertificado} |`);
    expect(csd.certificado).toBe(readFileSync(join(CSD_DIR, `${name}.csd.cer`)).toString('base64'));
    expect(csd.rfc).toBe(name.replace('CSD01_', ''));
  });

  it('the shipped copies are byte for byte the fixtures', () => {
    for (const name of ['EKU9003173C9', 'XIQB891116QE4', 'CSD01_AAA010101AAA']) {
      for (const ext of ['cer', 'key']) {
        const shipped = readFileSync(new URL(`../../../src/server/cfdi/test-credentials/${name}.csd.${ext}`, import.meta.url));
        expect(shipped.equals(readFileSync(join(CSD_DIR, `${name}.csd.${ext}`)))).toBe(true);
      }
    }
  });

  it('refuses a wrong password, a key of another certificate, and a FIEL', () => {
    const file = (n: string) => join(CSD_DIR, n);
    expect(() => Csd.openFiles(file('EKU9003173C9.csd.cer'), file('EKU9003173C9.csd.key'), 'otra')).toThrow();
    expect(() => Csd.openFiles(file('EKU9003173C9.csd.cer'), file('XIQB891116QE4.csd.key'), '12345678a')).toThrow();
    expect(() => Csd.openFiles(file('EKU9003173C9.fiel.cer'), file('EKU9003173C9.fiel.key'), '12345678a')).toThrow(/CSD/);
  });
});

describe('Sello', () => {
  const csd = openTestCsd('EKU9003173C9');

  it('verifies with the public key of the Certificado written in the CFDI', () => {
    const { xml, cadena, sello } = sealCfdi(sampleInput(), csd);
    expect(attrOf(xml, 'Sello')).toBe(sello);
    expect(attrOf(xml, 'NoCertificado')).toBe('30001000000500003416');
    expect(nodeVerifies(cadena, sello, attrOf(xml, 'Certificado'))).toBe(true);
    expect(nodeVerifies(cadenaOriginal(xml), attrOf(xml, 'Sello'), attrOf(xml, 'Certificado'))).toBe(true);
    expect(checkCfdiSello(xml)).toMatchObject({ ok: true, cadena });
  });

  it('reproduces a real sandbox invoice\'s Sello exactly (Finkok demo, honorarios with retenciones)', () => {
    const real = fixture('cfdi40-ingreso-honorarios-retenciones-finkok-stamped.xml');
    const input: CfdiInput = {
      serie: 'T', folio: '1000', fecha: '2024-06-15T15:58:41', formaPago: '99', metodoPago: 'PPD',
      tipoDeComprobante: 'I', lugarExpedicion: '27200',
      emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
      receptor: { rfc: 'ICV060329BY0', nombre: 'INMOBILIARIA CVA', domicilioFiscalReceptor: '33826', regimenFiscalReceptor: '601', usoCfdi: 'G03' },
      conceptos: [{
        claveProdServ: '84111506', cantidad: '1.00', claveUnidad: 'E48', descripcion: 'SERVICIOS DE FACTURACION',
        valorUnitario: '1250.30', objetoImp: '02', traslados: [IVA_16],
        retenciones: [
          { impuesto: '001', tipoFactor: 'Tasa', tasaOCuota: '0.100000' },
          { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.106667' },
        ],
      }],
    };
    const ours = sealCfdi(input, csd);
    expect(ours.cadena).toBe(cadenaOriginal(real));
    expect(ours.sello).toBe(attrOf(real, 'Sello'));
  });

  it('reproduces the USD fixture\'s Sello from its cadena', () => {
    const real = fixture('cfdi40-ingreso-usd-tipocambio-unstamped.xml');
    expect(csd.sign(cadenaOriginal(real))).toBe(attrOf(real, 'Sello'));
    expect(checkCfdiSello(real).ok).toBe(true);
  });

  it('any change to signed data breaks it; a file edited after sealing is caught', () => {
    const { xml } = sealCfdi(sampleInput(), csd);
    expect(checkCfdiSello(xml.replace('Total="100.00"', 'Total="101.00"').replace('Descripcion="Café americano"', 'Descripcion="Café  americano "')).ok).toBe(true);
    const tampered = xml.replace('Descripcion="Café americano"', 'Descripcion="Café americano doble"');
    expect(checkCfdiSello(tampered)).toMatchObject({ ok: false, problem: 'signature' });
    expect(nodeVerifies(cadenaOriginal(tampered), attrOf(tampered, 'Sello'), attrOf(tampered, 'Certificado'))).toBe(false);
    expect(checkCfdiSello(fixture('cfdi40-ingreso-acuentaterceros-sw-stamped.xml'))).toMatchObject({ ok: false, problem: 'signature' });
    expect(checkCfdiSello(xml.replace('NoCertificado="30001000000500003416"', 'NoCertificado="30001000000500003415"')))
      .toMatchObject({ ok: false, problem: 'wrong-no-certificado' });
    expect(checkCfdiSello(fixture('cfdi40-nomina12-demo-unsigned.xml'))).toMatchObject({ ok: false, problem: 'no-sello' });
  });

  it('refuses to seal for another issuer than the CSD\'s', () => {
    expect(() => sealCfdi(sampleInput({ emisor: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', regimenFiscal: '612' } }), csd))
      .toThrow(/does not match/);
  });
});

describe('the sandbox PAC', () => {
  const csd = openTestCsd('EKU9003173C9');
  const at = new Date('2026-05-01T18:00:05Z'); // 12:00:05 in Mexico City
  const pac = new SandboxPac({ now: () => at });
  const sandboxCert = readFileSync(join(CSD_DIR, 'CSD01_AAA010101AAA.csd.cer')).toString('base64');

  it('adds a TFD 1.1 whose SelloSAT verifies with the sandbox certificate (CSD01_AAA010101AAA)', async () => {
    const sealed = sealCfdi(sampleInput(), csd);
    const stamped = await pac.stamp(sealed.xml);
    const tfd = findTimbre(parseSatXml(stamped.xml))!;
    const a = (n: string) => tfd.getAttribute(n);
    expect(stamped.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(a('UUID')).toBe(stamped.uuid);
    expect(stamped.fechaTimbrado).toBe('2026-05-01T12:00:05');
    expect(a('FechaTimbrado')).toBe('2026-05-01T12:00:05');
    expect(a('Version')).toBe('1.1');
    expect(a('RfcProvCertif')).toBe('AAA010101AAA');
    expect(a('NoCertificadoSAT')).toBe('30001000000300023708');
    expect(a('SelloCFD')).toBe(sealed.sello);
    const tfdCadena = `||1.1|${stamped.uuid}|2026-05-01T12:00:05|AAA010101AAA|${sealed.sello}|30001000000300023708||`;
    expect(cadenaOriginal(tfd)).toBe(tfdCadena);
    expect(nodeVerifies(tfdCadena, a('SelloSAT')!, sandboxCert)).toBe(true);
    expect(checkTimbre(stamped.xml, pac.certificate)).toMatchObject({ ok: true, cadena: tfdCadena });
    // The comprobante's own seal still holds after stamping.
    expect(nodeVerifies(cadenaOriginal(stamped.xml), attrOf(stamped.xml, 'Sello'), attrOf(stamped.xml, 'Certificado'))).toBe(true);
  });

  it('tampering with a stamped CFDI breaks the timbre or the seal', async () => {
    const { xml } = await pac.stamp(sealCfdi(sampleInput(), csd).xml);
    const uuid = findTimbre(parseSatXml(xml))!.getAttribute('UUID')!;
    expect(checkTimbre(xml.replace(uuid, uuid.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))), pac.certificate)).toMatchObject({ ok: false, problem: 'signature' });
    expect(checkTimbre(xml.replace('FechaTimbrado="2026-05-01T12:00:05"', 'FechaTimbrado="2026-05-01T12:00:06"'), pac.certificate).ok).toBe(false);
    expect(checkTimbre(xml, new X509Certificate(Buffer.from(csd.certificado, 'base64')))).toMatchObject({ ok: false, problem: 'wrong-no-certificado' });
    expect(checkCfdiSello(xml.replace('Importe="86.20"', 'Importe="86.21"')).ok).toBe(false);
  });

  it('stamps with the expired XIQB891116QE4 CSD (test certificates are not refused for their dates)', async () => {
    const berenice = openTestCsd('XIQB891116QE4');
    expect(berenice.validTo.getTime()).toBeLessThan(at.getTime());
    const input = sampleInput({
      emisor: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', regimenFiscal: '612' },
      receptor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', domicilioFiscalReceptor: '42501', regimenFiscalReceptor: '601', usoCfdi: 'G03' },
    });
    const issued = await issueSandboxCfdi(input, berenice, { pac });
    expect(checkCfdiSello(issued.xml).ok).toBe(true);
    expect(checkTimbre(issued.xml, pac.certificate).ok).toBe(true);
  });

  it('refuses what a PAC refuses, with its error code', async () => {
    const sealed = sealCfdi(sampleInput(), csd);
    const code = async (xml: string) => pac.stamp(xml).then(() => 'stamped', (e: unknown) => (e instanceof PacError ? e.code : String(e)));
    expect(await code('<cfdi:Comprobante')).toBe('301');
    expect(await code(`<!DOCTYPE x>${sealed.xml.replace(/^<\?xml[^>]*>/, '')}`)).toBe('301');
    expect(await code(fixture('cfdi33-ingreso-usd-tipocambio-unstamped.xml'))).toBe('301');
    expect(await code(sealed.xml.replace('Folio="123"', 'Folio="124"'))).toBe('302');
    expect(await code((await pac.stamp(sealed.xml)).xml)).toBe('307');
    // Sealed correctly, but with XIQB's CSD on an invoice whose Emisor is EKU.
    const other = openTestCsd('XIQB891116QE4');
    const cert = { noCertificado: other.noCertificado, certificado: other.certificado };
    const foreign = buildCfdi(sampleInput(), cert, other.sign(cadenaOriginal(buildCfdi(sampleInput(), cert))));
    expect(await code(foreign)).toBe('303');
    // A Fecha after the stamping time.
    expect(await code(sealCfdi(sampleInput({ fecha: '2026-05-01T13:00:00' }), csd).xml)).toBe('401');
    expect(await code(sealCfdi(sampleInput({ fecha: '2026-05-01T12:04:00' }), csd).xml)).toBe('stamped');
  });

  it('issues 100 CFDI (build, seal, stamp) in well under 2 s', async () => {
    const started = performance.now();
    for (let i = 0; i < 100; i++) await issueSandboxCfdi(sampleInput({ folio: String(i + 1) }), csd, { at });
    const ms = performance.now() - started;
    console.log(`100 sandbox CFDI in ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(2000);
  });
});
