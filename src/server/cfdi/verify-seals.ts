// Integrity of a received CFDI 3.3/4.0 (DESIGN §5), checked on every import, so it must be cheap:
// - seal: the Comprobante's Sello is the SHA256withRSA signature, by the certificate in its own
//   Certificado attribute, of SAT's cadena original (cadena.ts: SAT's XSLT, compiled); NoCertificado
//   is that certificate's serial; and the timbre's SelloCFD is this Sello (a timbre copied from
//   another document is not this document's). 3.2 (SHA-1, its own XSLT) is left 'sin_verificar'.
// - sealSat: the TimbreFiscalDigital 1.1's SelloSAT over the TFD's cadena, against the stamping
//   certificate its NoCertificadoSAT names, when we have it (./pac-certs, plus SAT_CERTS_DIR):
//   'sin_verificar' otherwise. We only ship the certificate our sandbox PAC signs with (SAT's public
//   test CSD, whose key is public too: a 'valido' SelloSAT under it says "sandbox", not "SAT knows
//   it"); SAT publishes the real ones and an installation adds them through SAT_CERTS_DIR.
// The Certificado is trusted for the seal only as far as the math goes: whether SAT issued it is the
// PAC's check, which the SelloSAT vouches for.
// cfdiChecks adds SAT's CFDI 4.0 rules (rules/index.ts): what import stores on each receipt.
// Cost: one parse per CFDI (light-xml.ts: saxes into a light tree, a third of xmldom's cost; on import
// the reader's own parse builds it, read.ts readCfdiAndTree) serves both cadenas and the rules; the seal checks themselves are seal.ts's, whose certificate cache keeps
// an issuer's certificate parsed once (it seals thousands of CFDI); the stamping ones load once.
import { X509Certificate, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document, Element } from '@xmldom/xmldom';
import type { CfdiFinding, SealState } from '../../domain/ticket';
import { readSatCertsDirs } from '../config';
import { cadenaOriginal, findTimbre, NS_CFDI3, NS_CFDI40, NS_TFD } from './cadena';
import { detachedLight, parseLightXml } from './light-xml';
import { checkCfdi40 } from './rules';
import { checkCfdiSello, noCertificadoOf, verifySello } from './seal';

export type SatSealState = Exclude<SealState, 'sin_sello'>;

export interface SealChecks {
  seal: SealState;
  sealSat: SatSealState;
}

const UNCHECKED: SealChecks = { seal: 'sin_verificar', sealSat: 'sin_verificar' };

// ---- the stamping certificates ---------------------------------------------------------------

const BUNDLED_DIR = fileURLToPath(new URL('./pac-certs/', import.meta.url));
let pacCertificates: Map<string, KeyObject> | undefined;

/** Every .cer (DER or PEM) in these folders, by serial; an unreadable file is skipped with a warning. */
export function loadPacCertificates(dirs: readonly string[]): Map<string, KeyObject> {
  const out = new Map<string, KeyObject>();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.toLowerCase().endsWith('.cer'));
    } catch (err) {
      console.error(`[cfdi] no se pudo leer la carpeta de certificados ${dir}:`, err instanceof Error ? err.message : err);
      continue;
    }
    for (const name of names.sort()) {
      try {
        const cert = new X509Certificate(readFileSync(join(dir, name)));
        out.set(noCertificadoOf(cert), cert.publicKey);
      } catch {
        console.error(`[cfdi] ${join(dir, name)} no es un certificado; se ignora`);
      }
    }
  }
  return out;
}

/** The bundled certificates plus SAT_CERTS_DIR's, loaded once per thread. */
function stampingCertificates(): Map<string, KeyObject> {
  pacCertificates ??= loadPacCertificates([BUNDLED_DIR, ...readSatCertsDirs()]);
  return pacCertificates;
}

// ---- the checks ------------------------------------------------------------------------------

export interface VerifyOptions {
  /** Stamping certificates by NoCertificadoSAT (tests); default: ./pac-certs and SAT_CERTS_DIR. */
  pacCertificates?: ReadonlyMap<string, KeyObject>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The CFDI's XML as a light tree (light-xml.ts), or null when it is not XML we can check. */
export function parseForSeals(source: Uint8Array | string): Document | null {
  try {
    return parseLightXml(typeof source === 'string' ? source : utf8.decode(source));
  } catch {
    return null;
  }
}

/** Both seals of a CFDI (bytes, text or an already parsed document). Never throws on hostile input. */
export function verifySeals(source: Uint8Array | string | Document, options: VerifyOptions = {}): SealChecks {
  const doc = typeof source === 'string' || source instanceof Uint8Array ? parseForSeals(source) : source;
  const root = doc?.documentElement;
  if (!doc || !root || root.localName !== 'Comprobante') return UNCHECKED;
  const version = root.namespaceURI === NS_CFDI40 ? root.getAttribute('Version') : root.namespaceURI === NS_CFDI3 ? root.getAttribute('Version') || root.getAttribute('version') : null;
  if (version !== '4.0' && version !== '3.3') {
    // 3.2 signs with SHA-1 over another stylesheet: not checked; without a Sello it still says so.
    const sello = root.getAttribute('Sello') || root.getAttribute('sello');
    return { seal: version === '3.2' && !sello?.trim() ? 'sin_sello' : 'sin_verificar', sealSat: 'sin_verificar' };
  }
  const timbre = findTimbre(doc);
  return { seal: checkSeal(doc, root, timbre), sealSat: timbre ? checkSealSat(timbre, options.pacCertificates ?? stampingCertificates()) : 'sin_verificar' };
}

const noSpaces = (s: string | null): string => (s ?? '').replace(/\s+/g, '');

function checkSeal(doc: Document, root: Element, timbre: Element | undefined): SealState {
  const sello = noSpaces(root.getAttribute('Sello'));
  if (sello === '') return 'sin_sello';
  // The timbre certifies the Sello it copies: another document's timbre does not make this one stamped.
  if (timbre && noSpaces(timbre.getAttribute('SelloCFD')) !== sello) return 'invalido';
  try {
    return checkCfdiSello(doc).ok ? 'valido' : 'invalido';
  } catch {
    return 'sin_verificar'; // no cadena can be built from it
  }
}

function checkSealSat(timbre: Element, certificates: ReadonlyMap<string, KeyObject>): SatSealState {
  if (timbre.namespaceURI !== NS_TFD || timbre.getAttribute('Version') !== '1.1') return 'sin_verificar';
  const key = certificates.get((timbre.getAttribute('NoCertificadoSAT') ?? '').trim());
  if (!key) return 'sin_verificar';
  const selloSat = noSpaces(timbre.getAttribute('SelloSAT'));
  if (selloSat === '') return 'invalido';
  let cadena: string;
  try {
    cadena = cadenaOriginal(detachedLight(timbre) ?? timbre, 'tfd11');
  } catch {
    return 'sin_verificar';
  }
  return verifySello(cadena, selloSat, key) ? 'valido' : 'invalido';
}

/** What import stores about a CFDI's integrity and SAT's rules (receipts.seal, seal_sat, findings). */
export interface CfdiChecks extends SealChecks {
  findings: CfdiFinding[];
}

/**
 * The checks a received CFDI gets on import, from one parse: both seals, and SAT's CFDI 4.0 rules
 * (rules/index.ts) without their Sello rule, which `seal` already says. The rules judge the Fecha
 * against the clock, so only a Fecha in the future is found: the 72-hour window is for stamping.
 */
export function cfdiChecks(source: Uint8Array | string | Document): CfdiChecks {
  const doc = typeof source === 'string' || source instanceof Uint8Array ? parseForSeals(source) : source;
  if (!doc) return { ...UNCHECKED, findings: [] };
  return { ...verifySeals(doc), findings: checkCfdi40(doc, { skipSeal: true }) };
}
