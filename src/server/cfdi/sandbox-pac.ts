// The local sandbox PAC: stamps sealed CFDI 4.0 the way a PAC's test environment does, offline.
// It checks what a PAC checks about the seal (well-formed, no previous timbre, the Sello verifies
// with the Certificado inside, NoCertificado is that certificate's serial, it is a CSD of the
// Emisor's RFC), then adds cfdi:Complemento/tfd:TimbreFiscalDigital 1.1.
// Its own signing key is SAT's public TEST CSD CSD01_AAA010101AAA (password 12345678a, expired
// 2021, worthless outside sandboxes): SelloSAT is signed with it, NoCertificadoSAT is its serial
// and RfcProvCertif its RFC, so anyone can check a sandbox timbre with its public certificate.
// Deliberately NOT checked, unlike a real PAC: certificate validity dates (SAT's test CSDs, like
// XIQB891116QE4's, are expired and must still stamp), the 72-hour window (the demo stamps tickets
// from past months; only a Fecha later than the stamping time is refused), SAT's lists (LCO,
// l_RFC) and the catalog rules — those are for issue 6's validation before calling any PAC.
// One document, one stamp: the UUID is derived from the document's Sello and stamp()'s FechaTimbrado
// from its Fecha, so re-sending a document (a job retried after a crash between the PAC's answer and
// saving it) gets the very timbre it got the first time — as a real PAC answers a re-sent CFDI with
// its original TFD — and never a second invoice.
import { createHash, X509Certificate } from 'node:crypto';
import { Certificate } from '@nodecfdi/credentials/node';
import { XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { mexicoCityDateTime, XSI } from './build';
import { cadenaOriginal, CfdiXmlError, NS_CFDI40, NS_TFD, parseSatXml } from './cadena';
import { PacError, type PacPort, type StampResult } from './pac';
import { checkCfdiSello, openTestCsd, type Csd } from './seal';

export const TFD_SCHEMA_LOCATION = `${NS_TFD} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`;
const XMLNS = 'http://www.w3.org/2000/xmlns/';
/** Tolerated clock difference between the issuer and the sandbox when the Fecha is ahead. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** stamp()'s FechaTimbrado: the document's Fecha plus this (a PAC answers within seconds). */
const STAMP_DELAY_MS = 5_000;

export interface SandboxPacOptions {
  /** The stamping clock (tests and the demo data stamp at chosen times). */
  now?: () => Date;
  /** The sandbox's own CSD; SAT's public test CSD CSD01_AAA010101AAA by default. */
  csd?: Csd;
}

export class SandboxPac implements PacPort {
  readonly name = 'sandbox';
  private readonly now: () => Date;
  private readonly csd: Csd;
  /** The certificate that verifies this sandbox's SelloSAT. */
  readonly certificate: X509Certificate;

  constructor(options: SandboxPacOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.csd = options.csd ?? openTestCsd('CSD01_AAA010101AAA');
    this.certificate = new X509Certificate(Buffer.from(this.csd.certificado, 'base64'));
  }

  /** Stamps at the document's Fecha + 5 s: the same document always gets the same timbre. */
  async stamp(xml: string): Promise<StampResult> {
    return this.stampAt(xml, undefined);
  }

  /** Stamps as if at `at` (FechaTimbrado): the demo data stamps each invoice at its own date. */
  async stampAt(xml: string, at: Date | undefined): Promise<StampResult> {
    const doc = parse(xml);
    const root = doc.documentElement!;
    if (root.namespaceURI !== NS_CFDI40 || root.localName !== 'Comprobante' || root.getAttribute('Version') !== '4.0') {
      throw new PacError('301', 'XML mal formado: solo se timbran comprobantes CFDI versión 4.0');
    }
    if (root.getElementsByTagNameNS(NS_TFD, 'TimbreFiscalDigital').length > 0) {
      throw new PacError('307', 'El CFDI contiene un timbre previo');
    }
    const seal = checkCfdiSello(doc);
    if (!seal.ok) throw new PacError('302', `Sello mal formado o inválido (${seal.problem})`);
    const issuerRfc = firstChild(root, 'Emisor')?.getAttribute('Rfc');
    const certificate = satCertificate(root.getAttribute('Certificado')!);
    if (certificate.fiel) throw new PacError('306', 'El certificado no es de tipo CSD');
    if (certificate.rfc !== issuerRfc) throw new PacError('303', 'Sello no corresponde a emisor');
    const fecha = root.getAttribute('Fecha') ?? '';
    const now = at ?? this.now();
    if (fecha > mexicoCityDateTime(new Date(now.getTime() + FUTURE_TOLERANCE_MS))) {
      throw new PacError('401', 'Fecha y hora de generación fuera de rango');
    }
    const fechaTimbrado = at ? mexicoCityDateTime(at) : addSeconds(fecha, STAMP_DELAY_MS / 1000);

    const uuid = uuidOf(root.getAttribute('Sello')!);
    const tfd = doc.createElementNS(NS_TFD, 'tfd:TimbreFiscalDigital');
    tfd.setAttributeNS(XMLNS, 'xmlns:tfd', NS_TFD);
    if (!root.lookupNamespaceURI('xsi')) tfd.setAttributeNS(XMLNS, 'xmlns:xsi', XSI);
    tfd.setAttributeNS(XSI, 'xsi:schemaLocation', TFD_SCHEMA_LOCATION);
    tfd.setAttribute('Version', '1.1');
    tfd.setAttribute('UUID', uuid);
    tfd.setAttribute('FechaTimbrado', fechaTimbrado);
    tfd.setAttribute('RfcProvCertif', this.csd.rfc);
    tfd.setAttribute('SelloCFD', root.getAttribute('Sello')!);
    tfd.setAttribute('NoCertificadoSAT', this.csd.noCertificado);
    // SelloSAT is not part of the TFD's cadena, so the cadena can be taken before it is set.
    tfd.setAttribute('SelloSAT', this.csd.sign(cadenaOriginal(tfd)));
    insertTimbre(doc, root, tfd);

    const stamped = new XMLSerializer().serializeToString(doc);
    // The timbre must not change what the issuer signed: guard against a serialisation slip.
    if (cadenaOriginal(stamped) !== seal.cadena) throw new Error('sandbox PAC: stamping changed the cadena original');
    return { xml: stamped, uuid, fechaTimbrado };
  }
}

/** A version-4-shaped UUID made from the SHA-256 of the document's Sello (unique per document). */
function uuidOf(sello: string): string {
  const h = createHash('sha256').update(sello.replace(/\s+/g, '')).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex').toUpperCase();
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** SAT's local date-time ("2026-05-01T12:00:00", wall clock) plus whole seconds, calendar-exact. */
function addSeconds(fecha: string, seconds: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(fecha);
  if (!m) throw new PacError('301', 'XML mal formado: Fecha');
  const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) + seconds * 1000;
  return new Date(t).toISOString().slice(0, 19);
}

const satCertificates = new Map<string, { rfc: string; fiel: boolean }>();

/** RFC and SAT type of a Certificado, read by @nodecfdi/credentials (~0.5 ms, so remembered). */
function satCertificate(certificado: string): { rfc: string; fiel: boolean } {
  const key = certificado.replace(/\s+/g, '');
  let facts = satCertificates.get(key);
  if (!facts) {
    const cert = new Certificate(key);
    facts = { rfc: cert.rfc(), fiel: cert.satType().isFiel() };
    if (satCertificates.size >= 64) satCertificates.delete(satCertificates.keys().next().value!);
    satCertificates.set(key, facts);
  }
  return facts;
}

function parse(xml: string): Document {
  try {
    return parseSatXml(xml);
  } catch (e) {
    if (e instanceof CfdiXmlError) throw new PacError('301', 'XML mal formado');
    throw e;
  }
}

function firstChild(parent: Element, localName: string): Element | undefined {
  for (let c = parent.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === c.ELEMENT_NODE && (c as Element).localName === localName && (c as Element).namespaceURI === NS_CFDI40) {
      return c as Element;
    }
  }
  return undefined;
}

/** Puts the timbre last in cfdi:Complemento (created before any Addenda), keeping a pretty-printed layout. */
function insertTimbre(doc: Document, root: Element, tfd: Element): void {
  const blank = (n: Node | null): Node | null => (n?.nodeType === n?.TEXT_NODE && /^\s+$/.test(n?.nodeValue ?? '') ? n : null);
  const indent = blank(root.firstChild)?.nodeValue ?? ''; // "\n  " when pretty-printed, else ""
  const text = (s: string) => doc.createTextNode(s);
  let complemento = firstChild(root, 'Complemento');
  if (!complemento) {
    complemento = doc.createElementNS(NS_CFDI40, root.prefix ? `${root.prefix}:Complemento` : 'Complemento');
    if (indent) complemento.appendChild(text(indent));
    const addenda = firstChild(root, 'Addenda');
    if (addenda) {
      root.insertBefore(complemento, addenda);
      if (indent) root.insertBefore(text(indent), addenda);
    } else {
      const trailing = blank(root.lastChild);
      if (indent) root.insertBefore(text(indent), trailing);
      root.insertBefore(complemento, trailing);
    }
  }
  const hasElements = Array.from(complemento.childNodes).some((n) => n.nodeType === n.ELEMENT_NODE);
  const childIndent = hasElements ? (blank(complemento.firstChild)?.nodeValue ?? '') : indent ? `${indent}  ` : '';
  const closing = blank(complemento.lastChild);
  if (childIndent) complemento.insertBefore(text(childIndent), closing);
  complemento.insertBefore(tfd, closing);
}
