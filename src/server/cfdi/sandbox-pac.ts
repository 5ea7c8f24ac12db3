// The local sandbox PAC: stamps sealed CFDI 4.0 and cancels them the way a PAC's test environment
// does, offline.
// Stamping checks what a PAC checks about the seal (well-formed, no previous timbre, the Sello verifies
// with the Certificado inside, NoCertificado is that certificate's serial, it is a CSD of the Emisor's
// RFC), refuses a Fecha later than the stamping time at its place of issue (LugarExpedicion's time
// zone), applies SAT's CFDI 4.0 rules (rules/index.ts: the same ones we check before stamping) and
// answers the first one broken with its CFDI40xxx code, then adds
// cfdi:Complemento/tfd:TimbreFiscalDigital 1.1.
// Its own signing key is SAT's public TEST CSD CSD01_AAA010101AAA (password 12345678a, expired
// 2021, worthless outside sandboxes): SelloSAT is signed with it, NoCertificadoSAT is its serial
// and RfcProvCertif its RFC, so anyone can check a sandbox timbre with its public certificate.
// Deliberately NOT checked, unlike a real PAC: certificate validity dates (SAT's test CSDs, like
// XIQB891116QE4's, are expired and must still stamp), the 72-hour window (the demo stamps tickets
// from past months) and SAT's lists (LCO, l_RFC).
// One document, one stamp: the UUID is derived from the document's Sello and stamp()'s FechaTimbrado
// from its Fecha, so re-sending a document (a job retried after a crash between the PAC's answer and
// saving it) gets the very timbre it got the first time — as a real PAC answers a re-sent CFDI with
// its original TFD — and never a second invoice.
// Cancelling needs what was stamped: the sandbox keeps a ledger of its stamps (the facts SAT's
// cancellation rules look at, and each cancellation's state) in a SandboxLedger — in memory by
// default (a process's sandbox), or in a FileStore (fileLedger) so that a restarted server can still
// cancel what it stamped before. The cancellation rules are in sandbox-cancel.ts.
import { createHash, X509Certificate } from 'node:crypto';
import { Certificate } from '@nodecfdi/credentials/node';
import { XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { productCents } from '../../domain/decimal';
import { cfdiFechaAt, instantOfCfdiFecha } from '../../domain/cfdi-time-zone';
import { mexicoCityDateTime } from '../../domain/mexico-time';
import { XSI } from './build';
import { cadenaOriginal, CfdiXmlError, NS_CFDI40, NS_TFD, parseSatXml } from './cadena';
import { checkCfdi40 } from './rules';
import { PacError, type CancelRequest, type CancelResult, type PacPort, type StampResult } from './pac';
import { ACCEPTANCE_WINDOW_MS, cancelableOf, checkCancelDeadline, checkCancelShape, checkNotBlocked, checkReplacement, normalUuid } from './sandbox-cancel';
import { memoryLedger, type SandboxCancellation, type SandboxLedger, type SandboxRecord } from './sandbox-ledger';
import { checkCfdiSello, openTestCsd, type Csd } from './seal';

export const TFD_SCHEMA_LOCATION = `${NS_TFD} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`;
const XMLNS = 'http://www.w3.org/2000/xmlns/';
/** Tolerated clock difference between the issuer and the sandbox when the Fecha is ahead. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** stamp()'s FechaTimbrado: the document's Fecha plus this (a PAC answers within seconds). */
const STAMP_DELAY_MS = 5_000;
const NS_PAGOS20 = 'http://www.sat.gob.mx/Pagos20';

export interface SandboxPacOptions {
  /** The stamping clock (tests and the demo data stamp at chosen times). */
  now?: () => Date;
  /** The sandbox's own CSD; SAT's public test CSD CSD01_AAA010101AAA by default. */
  csd?: Csd;
  /** Where it keeps what it stamped and cancelled (memory by default: see fileLedger). */
  ledger?: SandboxLedger;
}

export class SandboxPac implements PacPort {
  readonly name = 'sandbox';
  private readonly now: () => Date;
  private readonly csd: Csd;
  private readonly ledger: SandboxLedger;
  /** Ledger updates one after another: a stamp that relates another CFDI rewrites that CFDI's record. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The certificate that verifies this sandbox's SelloSAT. */
  readonly certificate: X509Certificate;

  constructor(options: SandboxPacOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.csd = options.csd ?? openTestCsd('CSD01_AAA010101AAA');
    this.ledger = options.ledger ?? memoryLedger();
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
    // Fecha is wall-clock time at LugarExpedicion; FechaTimbrado is Mexico City's (SAT's timbre).
    const place = root.getAttribute('LugarExpedicion') ?? '';
    const now = at ?? this.now();
    if (fecha > cfdiFechaAt(new Date(now.getTime() + FUTURE_TOLERANCE_MS), place)) {
      throw new PacError('401', 'Fecha y hora de generación fuera de rango');
    }
    const issued = instantOfCfdiFecha(fecha, place);
    if (Number.isNaN(issued.getTime())) throw new PacError('301', 'XML mal formado: Fecha');
    const stampedAt = at ?? new Date(issued.getTime() + STAMP_DELAY_MS);
    // SAT's CFDI 4.0 rules, as a real PAC applies them: the first finding is the answer, with its code.
    // Judged at the stamp's own time (Fecha + 5 s, or `at`), so the 72-hour window stays unchecked here.
    const [finding] = checkCfdi40(doc, { now: stampedAt, skipSeal: true });
    if (finding) throw new PacError(finding.code, finding.message);
    const fechaTimbrado = mexicoCityDateTime(stampedAt);

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
    const { record, pays } = recordOf(root, uuid, stampedAt);
    await this.serial(() => this.remember(record, pays));
    return { xml: stamped, uuid, fechaTimbrado };
  }

  /**
   * SAT's answer to a cancellation request (rules in sandbox-cancel.ts). Asking again answers the
   * state the first request reached (202 once cancelled); a refused one ('rechazada') may be asked again.
   */
  async cancel(request: CancelRequest): Promise<CancelResult> {
    return this.serial(async () => {
      const { uuid, replacement } = checkCancelShape(request);
      const record = await this.ledger.get(uuid);
      if (!record) throw new PacError('205', 'UUID No existe');
      if (record.rfcEmisor !== (request.rfcEmisor ?? '').trim().toUpperCase()) {
        throw new PacError('203', 'UUID no corresponde al RFC del emisor');
      }
      const total = request.total?.trim();
      if ((total !== undefined && productCents(total, '1') !== productCents(record.total, '1'))
        || (request.rfcReceptor !== undefined && request.rfcReceptor.trim().toUpperCase() !== record.rfcReceptor)) {
        throw new PacError('205', 'UUID No existe: el total o el RFC receptor no corresponden');
      }
      const now = this.now();
      const current = await this.settle(record, now);
      if (current?.state === 'cancelada') return resultOf(uuid, current, '202');
      if (current?.state === 'en_proceso') return resultOf(uuid, current, '201');
      checkCancelDeadline(record, now);
      if (replacement) checkReplacement(record, await this.ledger.get(replacement));
      const live = new Set<string>();
      for (const r of record.relatedBy) {
        if ((await this.ledger.get(r.uuid))?.cancellation?.state !== 'cancelada') live.add(r.uuid);
      }
      checkNotBlocked(record, live);
      const cancelable = cancelableOf(record, now);
      const at = now.toISOString();
      const cancellation: SandboxCancellation = cancelable === 'Cancelable sin aceptación'
        ? { motive: request.motive, replacement, state: 'cancelada', cancelable, satStatus: 'Cancelado sin aceptación', requestedAt: at, deadline: null }
        : { motive: request.motive, replacement, state: 'en_proceso', cancelable, satStatus: 'En proceso', requestedAt: at, deadline: new Date(now.getTime() + ACCEPTANCE_WINDOW_MS).toISOString() };
      await this.ledger.put({ ...record, cancellation });
      return resultOf(uuid, cancellation, '201');
    });
  }

  /** Where the cancellation of `uuid` stands: a request past its 72 hours is cancelled (plazo vencido). */
  async cancellationStatus(uuid: string): Promise<CancelResult | null> {
    return this.serial(async () => {
      const id = normalUuid(uuid);
      const record = id ? await this.ledger.get(id) : undefined;
      if (!id || !record) throw new PacError('205', 'UUID No existe');
      const current = await this.settle(record, this.now());
      return current ? resultOf(id, current, current.state === 'cancelada' ? '202' : '201') : null;
    });
  }

  /**
   * The receptor's answer to a cancellation waiting for it (SAT's buzón tributario), which the sandbox
   * plays: accepted → cancelled, refused → the CFDI stays vigente. Answers the state reached.
   */
  async answerCancellation(uuid: string, accept: boolean): Promise<CancelResult> {
    return this.serial(async () => {
      const id = normalUuid(uuid);
      const record = id ? await this.ledger.get(id) : undefined;
      if (!id || !record) throw new PacError('205', 'UUID No existe');
      const current = await this.settle(record, this.now());
      if (current?.state !== 'en_proceso') throw new PacError('2001', 'No existen cancelaciones pendientes para este UUID');
      const answered: SandboxCancellation = accept
        ? { ...current, state: 'cancelada', satStatus: 'Cancelado con aceptación', deadline: null }
        : { ...current, state: 'rechazada', satStatus: 'Solicitud rechazada', deadline: null };
      await this.ledger.put({ ...record, cancellation: answered });
      return resultOf(id, answered, '201');
    });
  }

  /** A pending cancellation whose 72 hours ran out is cancelled: SAT's 'Plazo vencido'. */
  private async settle(record: SandboxRecord, now: Date): Promise<SandboxCancellation | null> {
    const c = record.cancellation;
    if (c?.state !== 'en_proceso' || !c.deadline || now.getTime() < new Date(c.deadline).getTime()) return c;
    const expired: SandboxCancellation = { ...c, state: 'cancelada', satStatus: 'Plazo vencido', deadline: null };
    await this.ledger.put({ ...record, cancellation: expired });
    return expired;
  }

  /**
   * Keeps a stamped CFDI (once: a re-sent document keeps its record) and notes it on the CFDI it relates
   * and, for a payment, on the documents it pays.
   */
  private async remember(record: SandboxRecord, pays: readonly string[]): Promise<void> {
    if (await this.ledger.get(record.uuid)) return;
    await this.ledger.put(record);
    const links = [...record.relates.map((r) => ({ uuid: r.uuid, how: r.tipoRelacion })), ...pays.map((uuid) => ({ uuid, how: 'pago' }))];
    for (const link of links) {
      const target = await this.ledger.get(link.uuid);
      if (!target || target.relatedBy.some((r) => r.uuid === record.uuid && r.how === link.how)) continue;
      await this.ledger.put({ ...target, relatedBy: [...target.relatedBy, { uuid: record.uuid, how: link.how }] });
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** What the cancellation rules need of a CFDI being stamped, and the documents it pays (Pagos 2.0). */
function recordOf(root: Element, uuid: string, stampedAt: Date): { record: SandboxRecord; pays: string[] } {
  const attr = (el: Element | undefined, name: string) => (el?.getAttribute(name) ?? '').trim();
  const relates: SandboxRecord['relates'] = [];
  for (let c = root.firstChild; c; c = c.nextSibling) {
    const group = c as Element;
    if (c.nodeType !== c.ELEMENT_NODE || group.localName !== 'CfdiRelacionados' || group.namespaceURI !== NS_CFDI40) continue;
    const tipoRelacion = attr(group, 'TipoRelacion');
    for (const r of Array.from(group.getElementsByTagNameNS(NS_CFDI40, 'CfdiRelacionado'))) {
      const related = normalUuid(r.getAttribute('UUID') ?? '');
      if (related) relates.push({ tipoRelacion, uuid: related });
    }
  }
  const record: SandboxRecord = {
    uuid,
    rfcEmisor: attr(firstChild(root, 'Emisor'), 'Rfc').toUpperCase(),
    rfcReceptor: attr(firstChild(root, 'Receptor'), 'Rfc').toUpperCase(),
    tipo: attr(root, 'TipoDeComprobante'),
    total: attr(root, 'Total') || '0',
    moneda: attr(root, 'Moneda') || 'MXN',
    tipoCambio: attr(root, 'TipoCambio') || '1',
    stampedAt: stampedAt.toISOString(),
    global: firstChild(root, 'InformacionGlobal') !== undefined,
    relates,
    relatedBy: [],
    cancellation: null,
  };
  const documents = Array.from(root.getElementsByTagNameNS(NS_PAGOS20, 'DoctoRelacionado'))
    .map((d) => normalUuid(d.getAttribute('IdDocumento') ?? ''))
    .filter((u): u is string => u !== null);
  return { record, pays: [...new Set(documents)] };
}

function resultOf(uuid: string, c: SandboxCancellation, code: '201' | '202'): CancelResult {
  return {
    uuid, state: c.state, cancelable: c.cancelable, satStatus: c.satStatus, code,
    motive: c.motive, replacement: c.replacement, requestedAt: c.requestedAt, deadline: c.deadline,
  };
}

/** A version-4-shaped UUID made from the SHA-256 of the document's Sello (unique per document). */
function uuidOf(sello: string): string {
  const h = createHash('sha256').update(sello.replace(/\s+/g, '')).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex').toUpperCase();
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
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
