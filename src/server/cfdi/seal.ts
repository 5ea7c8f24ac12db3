// Sealing (Sello) and its checks. SAT: Sello = base64 of the SHA256withRSA signature (PKCS#1 v1.5)
// of the cadena original's UTF-8 bytes, made with the issuer's CSD; NoCertificado = the
// certificate's serial number read as ASCII; Certificado = base64 of the .cer DER.
// @nodecfdi/credentials opens SAT's files (DER .cer, encrypted PKCS#8 .key) and checks that the
// pair belongs together and is a CSD. The signing itself goes through node:crypto with the key it
// decrypted: the library decrypts the key again on every sign (~55 ms each, measured), node:crypto
// signs in ~0.3 ms, and the signatures are identical (PKCS#1 v1.5 is deterministic).
import { createPrivateKey, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Credential } from '@nodecfdi/credentials/node';
import type { Document, Element } from '@xmldom/xmldom';
import { buildCfdi, CfdiBuildError, type CfdiInput } from './build';
import { cadenaOriginal, findTimbre, parseSatXml } from './cadena';

/** An opened CSD, ready to seal. */
export class Csd {
  private constructor(
    readonly rfc: string,
    /** The name on the certificate (with the regime suffix, e.g. "SA DE CV"; CFDI 4.0's Nombre omits it). */
    readonly legalName: string,
    readonly noCertificado: string,
    /** base64 of the certificate's DER: the CFDI's Certificado attribute. */
    readonly certificado: string,
    readonly validFrom: Date,
    readonly validTo: Date,
    private readonly key: KeyObject,
  ) {}

  /** Opens a CSD as SAT delivers it: the .cer (DER) and the encrypted .key (PKCS#8 DER) with its password. */
  static open(cer: Uint8Array, key: Uint8Array, password: string): Csd {
    const binary = (b: Uint8Array) => Buffer.from(b).toString('binary');
    // Throws when the key does not open with the password or does not belong to the certificate.
    const credential = Credential.create(binary(cer), binary(key), password);
    if (!credential.isCsd()) throw new Error('not a CSD (sello digital): a FIEL cannot seal a CFDI');
    const certificate = credential.certificate();
    return new Csd(
      credential.rfc(),
      credential.legalName(),
      certificate.serialNumber().bytes(),
      certificate.pemAsOneLine(),
      certificate.validFrom(),
      certificate.validTo(),
      createPrivateKey({ key: credential.privateKey().pem(), passphrase: password }),
    );
  }

  static openFiles(cerPath: string, keyPath: string, password: string): Csd {
    return Csd.open(readFileSync(cerPath), readFileSync(keyPath), password);
  }

  /** base64 SHA256withRSA of the cadena's UTF-8 bytes. */
  sign(cadena: string): string {
    return sign('sha256', Buffer.from(cadena, 'utf8'), this.key).toString('base64');
  }

  /**
   * The private key as a PEM encrypted with `passphrase` (PKCS#1, DES-EDE3-CBC): what a PAC's cancellation
   * service that signs SAT's request for us asks for (Finkok's `cancel`, with the account's password).
   */
  encryptedKeyPem(passphrase: string): string {
    return this.key.export({ type: 'pkcs1', format: 'pem', cipher: 'des-ede3-cbc', passphrase }) as string;
  }
}

// ---- SAT's public test CSDs, shipped in ./test-credentials (see its README) ------------------

export const TEST_CSD_PASSWORD = '12345678a';
export type TestCsdName = 'EKU9003173C9' | 'XIQB891116QE4' | 'CSD01_AAA010101AAA';
const testCsds = new Map<TestCsdName, Csd>();

/** One of SAT's public test CSDs (worthless outside sandboxes), opened once per process. */
export function openTestCsd(name: TestCsdName): Csd {
  let csd = testCsds.get(name);
  if (!csd) {
    const file = (ext: string) => fileURLToPath(new URL(`./test-credentials/${name}.csd.${ext}`, import.meta.url));
    csd = Csd.openFiles(file('cer'), file('key'), TEST_CSD_PASSWORD);
    testCsds.set(name, csd);
  }
  return csd;
}

// ---- sealing -----------------------------------------------------------------------------------

export interface SealedCfdi {
  xml: string;
  cadena: string;
  sello: string;
}

/** Builds the CFDI with the CSD's NoCertificado and Certificado, and seals it. */
export function sealCfdi(input: CfdiInput, csd: Csd): SealedCfdi {
  if (input.emisor.rfc.trim().toUpperCase() !== csd.rfc) {
    throw new CfdiBuildError(`Emisor Rfc ${input.emisor.rfc} does not match the CSD's RFC ${csd.rfc}`);
  }
  const cert = { noCertificado: csd.noCertificado, certificado: csd.certificado };
  const cadena = cadenaOriginal(buildCfdi(input, cert));
  const sello = csd.sign(cadena);
  return { xml: buildCfdi(input, cert, sello), cadena, sello };
}

// ---- checks ------------------------------------------------------------------------------------

/** Issuers' certificates by their Certificado text. Plenty for one import: a CSD seals thousands of CFDI. */
const certificates = new Map<string, X509Certificate | undefined>();
const CERTIFICATE_CACHE = 512;
/** Each certificate's public key, made once (the getter builds a new KeyObject on every read). */
const publicKeys = new WeakMap<X509Certificate, KeyObject>();

/**
 * The certificate in a Certificado attribute (base64 DER; stray whitespace tolerated), or undefined.
 * Remembered by its whole text: a document naming someone else's serial brings its own text, so it is
 * judged on its own.
 */
export function certificateFrom(certificado: string): X509Certificate | undefined {
  const text = certificado.replace(/\s+/g, '');
  if (certificates.has(text)) return certificates.get(text);
  let cert: X509Certificate | undefined;
  try {
    cert = new X509Certificate(Buffer.from(text, 'base64'));
  } catch {
    cert = undefined;
  }
  if (certificates.size >= CERTIFICATE_CACHE) certificates.delete(certificates.keys().next().value!);
  certificates.set(text, cert);
  return cert;
}

/** NoCertificado of a certificate: its serial number's bytes read as ASCII digits. */
export function noCertificadoOf(cert: X509Certificate): string {
  return Buffer.from(cert.serialNumber, 'hex').toString('latin1');
}

/** Whether `sello` (base64) is the SHA256withRSA signature of the cadena by this certificate or public key. */
export function verifySello(cadena: string, sello: string, signer: X509Certificate | KeyObject): boolean {
  let key: KeyObject;
  if (signer instanceof X509Certificate) {
    key = publicKeys.get(signer) ?? signer.publicKey;
    publicKeys.set(signer, key);
  } else key = signer;
  try {
    return verify('sha256', Buffer.from(cadena, 'utf8'), key, Buffer.from(sello.replace(/\s+/g, ''), 'base64'));
  } catch {
    return false;
  }
}

export type SelloProblem = 'no-sello' | 'bad-certificate' | 'wrong-no-certificado' | 'signature';

export interface SelloCheck {
  ok: boolean;
  problem?: SelloProblem;
  cadena: string;
  certificate?: X509Certificate;
}

/** Checks a CFDI's own seal: Certificado parses, NoCertificado is its serial, Sello signs the cadena. */
export function checkCfdiSello(source: string | Document): SelloCheck {
  const doc = typeof source === 'string' ? parseSatXml(source) : source;
  const root = doc.documentElement!;
  const cadena = cadenaOriginal(doc);
  const sello = root.getAttribute('Sello') ?? '';
  if (sello.trim() === '') return { ok: false, problem: 'no-sello', cadena };
  const certificate = certificateFrom(root.getAttribute('Certificado') ?? '');
  if (!certificate) return { ok: false, problem: 'bad-certificate', cadena };
  if (noCertificadoOf(certificate) !== root.getAttribute('NoCertificado')) {
    return { ok: false, problem: 'wrong-no-certificado', cadena, certificate };
  }
  if (!verifySello(cadena, sello, certificate)) return { ok: false, problem: 'signature', cadena, certificate };
  return { ok: true, cadena, certificate };
}

export type TimbreProblem = 'no-timbre' | 'sello-cfd' | 'wrong-no-certificado' | 'signature';

/**
 * Checks a stamped CFDI's TimbreFiscalDigital 1.1 against the stamping certificate: SelloCFD is
 * the comprobante's Sello, NoCertificadoSAT is the certificate's, SelloSAT signs the TFD's cadena.
 */
export function checkTimbre(source: string | Document, satCertificate: X509Certificate): { ok: boolean; problem?: TimbreProblem; cadena?: string } {
  const doc = typeof source === 'string' ? parseSatXml(source) : source;
  const tfd: Element | undefined = findTimbre(doc);
  if (!tfd) return { ok: false, problem: 'no-timbre' };
  const cadena = cadenaOriginal(tfd);
  if (tfd.getAttribute('SelloCFD') !== doc.documentElement!.getAttribute('Sello')) return { ok: false, problem: 'sello-cfd', cadena };
  if (tfd.getAttribute('NoCertificadoSAT') !== noCertificadoOf(satCertificate)) return { ok: false, problem: 'wrong-no-certificado', cadena };
  if (!verifySello(cadena, tfd.getAttribute('SelloSAT') ?? '', satCertificate)) return { ok: false, problem: 'signature', cadena };
  return { ok: true, cadena };
}
