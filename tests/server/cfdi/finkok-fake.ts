// A local fake of Finkok's SOAP services, on a free port, speaking the envelopes of its documentation:
// stamp / quick_stamp / stamped on /servicios/soap/stamp.wsdl, cancel / get_sat_status / get_receipt on
// /servicios/soap/cancel.wsdl. It really stamps: the sandbox PAC (its SAT rules, seal checks and
// TimbreFiscalDigital) behind Finkok's own checks — a document already stamped is refused with 307
// "timbre previo" (its stamp is fetched with `stamped`), an expired certificate 304, a Fecha outside
// the certificate's validity 305, a Fecha more than 72 hours old 401. Cancel checks the certificate and
// the key (encrypted with the account's password), then SAT's rules (the sandbox's) answer per UUID; the
// request SAT took (201) comes with its acuse, which Finkok keeps, while a UUID already cancelled (202)
// comes without one, as Finkok answers; get_receipt gives the kept acuse back, or Finkok's error answer
// for a UUID it has none of. Tests can make the next call of a method time out or lose its connection, before or after
// the fake did the work, and see every call and every stamp made.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instantOfCfdiFecha } from '../../../src/domain/cfdi-time-zone';
import { parseSatXml } from '../../../src/server/cfdi/cadena';
import { escapeXml, find, readSoap, textOf, type SoapNode } from '../../../src/server/cfdi/finkok-soap';
import { PacError } from '../../../src/server/cfdi/pac';
import { SandboxPac } from '../../../src/server/cfdi/sandbox-pac';
import { checkCfdiSello } from '../../../src/server/cfdi/seal';

const HOUR = 3_600_000;
const ENVELOPE_NS = 'xmlns:senv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:s0="apps.services.soap.core.views"';
const CANCEL_METHODS = new Set(['cancel', 'get_sat_status', 'get_receipt']);

export type Failure = 'timeout' | 'reset';

export interface FakeFinkok {
  url: string;
  /** The sandbox behind it (its SAT: a test may play the receptor's answer with answerCancellation). */
  sandbox: SandboxPac;
  /** Methods called, in order. */
  calls: string[];
  /** Timbres made per document (by its Sello): never more than one. */
  stampsOf(sello: string): number;
  /** Every timbre made. */
  stampCount(): number;
  /** The next call of `method` fails: no answer (held open) or the connection reset; `after`: once the work was done. */
  failNext(method: string, failure: Failure, after: boolean): void;
  /** `stamped` answers 603 this many times more for a document it knows (Finkok's lag after a stamp). */
  lagStamped(times: number): void;
  /** The acuse Finkok keeps of the cancellation of `uuid` (what get_receipt gives back). */
  acuseOf(uuid: string): string | undefined;
  /** Moves the fake's clock (SAT's and the PAC's time). */
  later(ms: number): void;
  now(): Date;
  close(): Promise<void>;
}

interface Stored {
  xml: string;
  uuid: string;
  fecha: string;
  satSeal: string;
  noCertificadoSat: string;
  count: number;
}

/** `start`: a clock frozen at that time (moved by later()); else the real time (moved by later() too). */
export async function startFakeFinkok(account: { username: string; password: string }, start?: Date): Promise<FakeFinkok> {
  let offset = 0;
  const clock = { get now() { return new Date((start ? start.getTime() : Date.now()) + offset); } };
  const sandbox = new SandboxPac({ now: () => clock.now });
  const bySello = new Map<string, Stored>();
  const calls: string[] = [];
  /** Acuses of the cancellation requests SAT took, by UUID. */
  const acuses = new Map<string, string>();
  const failures: { method: string; failure: Failure; after: boolean }[] = [];
  let lag = 0;
  let total = 0;
  const held = new Set<ServerResponse>();

  async function stamp(xml: string): Promise<string> {
    let doc;
    try {
      doc = parseSatXml(xml);
    } catch {
      return incidence('301', 'XML mal formado');
    }
    const root = doc.documentElement!;
    const sello = root.getAttribute('Sello') ?? '';
    if (sello && bySello.has(sello)) return incidence('307', 'El CFDI contiene un timbre previo');
    const seal = checkCfdiSello(doc);
    if (!seal.ok || !seal.certificate) return incidence('302', 'Sello mal formado o inválido');
    const emisor = doc.getElementsByTagNameNS('http://www.sat.gob.mx/cfd/4', 'Emisor')[0]?.getAttribute('Rfc') ?? '';
    if (!emisor || !seal.certificate.subject.includes(emisor)) return incidence('303', 'Sello no corresponde a emisor');
    const early = certificateChecks(seal.certificate, root.getAttribute('Fecha') ?? '', root.getAttribute('LugarExpedicion') ?? '', clock.now);
    if (early) return incidence(early.code, early.message);
    try {
      const r = await sandbox.stampAt(xml, clock.now);
      const tfd = parseSatXml(r.xml).getElementsByTagNameNS('http://www.sat.gob.mx/TimbreFiscalDigital', 'TimbreFiscalDigital')[0]!;
      const stored: Stored = { xml: r.xml, uuid: r.uuid, fecha: r.fechaTimbrado, satSeal: tfd.getAttribute('SelloSAT')!, noCertificadoSat: tfd.getAttribute('NoCertificadoSAT')!, count: 1 };
      bySello.set(sello, stored);
      total++;
      return stamped(stored, 'Comprobante timbrado satisfactoriamente');
    } catch (err) {
      if (err instanceof PacError) return incidence(err.code, err.message.replace(/^\S+ - /, ''));
      throw err;
    }
  }

  function lookUp(xml: string): string {
    let sello: string;
    try {
      sello = parseSatXml(xml).documentElement!.getAttribute('Sello') ?? '';
    } catch {
      return incidence('301', 'XML mal formado');
    }
    const stored = bySello.get(sello);
    if (!stored || lag > 0) {
      if (stored) lag--;
      return incidence('603', 'El CFDI no contiene un timbre previo');
    }
    return stamped(stored, 'Comprobante recibido satisfactoriamente');
  }

  async function cancel(body: SoapNode): Promise<string> {
    const u = find(body, 'UUID')!;
    const uuid = (u.attrs.UUID ?? '').toUpperCase();
    const rfc = textOf(body, 'taxpayer_id');
    if (!keyMatches(textOf(body, 'cer'), textOf(body, 'key'), account.password, rfc)) return cancelAnswer('', [], '711', 'Error con el certificado al cancelar');
    try {
      const r = await sandbox.cancel({ uuid, rfcEmisor: rfc, motive: u.attrs.Motivo as '01', replacement: u.attrs.FolioSustitucion || undefined });
      if (r.code !== '201') return cancelAnswer(rfc, [{ uuid, code: r.code, status: r.satStatus }], '', '');
      const acuse = acuses.get(uuid) ?? `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><CancelaCFDResponse xmlns="http://cancelacfd.sat.gob.mx"><CancelaCFDResult Fecha="${clock.now.toISOString().slice(0, 19)}" RfcEmisor="${rfc}"><Folios><UUID>${uuid}</UUID><EstatusUUID>${r.code}</EstatusUUID></Folios></CancelaCFDResult></CancelaCFDResponse></s:Body></s:Envelope>`;
      acuses.set(uuid, acuse);
      return cancelAnswer(rfc, [{ uuid, code: r.code, status: r.satStatus }], '', '', acuse);
    } catch (err) {
      if (!(err instanceof PacError)) throw err;
      return cancelAnswer(rfc, [{ uuid, code: err.code === '204' ? 'no_cancelable' : err.code, status: '' }], '', '');
    }
  }

  async function satStatus(body: SoapNode): Promise<string> {
    const uuid = textOf(body, 'uuid').toUpperCase();
    const known = [...bySello.values()].find((s) => s.uuid === uuid);
    const facts = known ? factsOf(known.xml) : null;
    if (!facts || facts.rfcEmisor !== textOf(body, 'taxpayer_id') || facts.rfcReceptor !== textOf(body, 'rtaxpayer_id') || Number(facts.total) !== Number(textOf(body, 'total'))) {
      return satAnswer('N - 602: Comprobante no encontrado.', 'No Encontrado', '', '');
    }
    const c = await sandbox.cancellationStatus(uuid);
    return satAnswer('S - Comprobante obtenido satisfactoriamente.', c?.state === 'cancelada' ? 'Cancelado' : 'Vigente', c?.cancelable ?? 'Cancelable sin aceptación', c?.satStatus ?? '');
  }

  function receipt(body: SoapNode): string {
    const uuid = textOf(body, 'uuid').toUpperCase();
    const rfc = textOf(body, 'taxpayer_id');
    const acuse = textOf(body, 'type') === 'C' ? acuses.get(uuid) : undefined;
    const known = acuse !== undefined && [...bySello.values()].some((s) => s.uuid === uuid && factsOf(s.xml).rfcEmisor === rfc);
    return receiptAnswer(uuid, rfc, known ? acuse : null, clock.now);
  }

  async function answer(method: string, body: SoapNode): Promise<string> {
    const soapBody = find(body, 'Body')!;
    if (textOf(soapBody, 'username') !== account.username || textOf(soapBody, 'password') !== account.password) {
      return `<senv:Envelope ${ENVELOPE_NS}><senv:Body><senv:Fault><faultcode>senv:Client</faultcode><faultstring>Usuario o contraseña inválidos</faultstring></senv:Fault></senv:Body></senv:Envelope>`;
    }
    const xml = () => Buffer.from(textOf(soapBody, 'xml'), 'base64').toString('utf8');
    const result = method === 'stamp' || method === 'quick_stamp' ? await stamp(xml())
      : method === 'stamped' ? lookUp(xml())
        : method === 'cancel' ? await cancel(soapBody)
          : method === 'get_sat_status' ? await satStatus(soapBody)
            : method === 'get_receipt' ? receipt(soapBody) : null;
    if (result === null) throw new Error(`fake Finkok: unknown method ${method}`);
    return `<?xml version='1.0' encoding='UTF-8'?><senv:Envelope ${ENVELOPE_NS} xmlns:tns="http://facturacion.finkok.com/${CANCEL_METHODS.has(method) ? 'cancel' : 'stamp'}"><senv:Body><tns:${method}Response><tns:${method}Result>${result}</tns:${method}Result></tns:${method}Response></senv:Body></senv:Envelope>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const tree = readSoap(Buffer.concat(chunks).toString('utf8'));
    const method = find(tree, 'Body')?.children[0]?.name ?? '';
    const path = req.url ?? '';
    if ((path !== '/servicios/soap/stamp.wsdl' && path !== '/servicios/soap/cancel.wsdl') || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    calls.push(method);
    const i = failures.findIndex((f) => f.method === method);
    const failure = i >= 0 ? failures.splice(i, 1)[0] : undefined;
    if (failure && !failure.after) return fail(res, failure.failure);
    const out = await answer(method, tree);
    if (failure) return fail(res, failure.failure);
    res.writeHead(out.includes('<senv:Fault>') ? 500 : 200, { 'content-type': 'text/xml; charset=utf-8' }).end(out);
  }

  function fail(res: ServerResponse, failure: Failure): void {
    if (failure === 'reset') res.socket?.destroy();
    else held.add(res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    sandbox,
    calls,
    stampsOf: (sello) => bySello.get(sello)?.count ?? 0,
    stampCount: () => total,
    failNext: (method, failure, after) => void failures.push({ method, failure, after }),
    lagStamped: (times) => void (lag = times),
    acuseOf: (uuid) => acuses.get(uuid.toUpperCase()),
    later: (ms) => void (offset += ms),
    now: () => clock.now,
    close: async () => {
      for (const r of held) r.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Finkok's checks before SAT's rules: certificate validity (304), Fecha within it (305), 72 hours (401). */
function certificateChecks(cert: X509Certificate, fecha: string, place: string, now: Date): { code: string; message: string } | null {
  if (now.getTime() > new Date(cert.validTo).getTime()) return { code: '304', message: 'Certificado revocado o caduco' };
  const issued = instantOfCfdiFecha(fecha, place);
  if (Number.isNaN(issued.getTime())) return null;
  if (issued < new Date(cert.validFrom) || issued > new Date(cert.validTo)) {
    return { code: '305', message: 'La fecha de emisión no esta dentro de la vigencia del CSD del Emisor' };
  }
  if (now.getTime() - issued.getTime() > 72 * HOUR) return { code: '401', message: 'Fecha y hora de generación fuera de rango' };
  return null;
}

/** The cer (base64 of its PEM) and the key (base64 of a PEM encrypted with the account's password) go together and are the RFC's. */
function keyMatches(cerB64: string, keyB64: string, password: string, rfc: string): boolean {
  try {
    const cert = new X509Certificate(Buffer.from(cerB64, 'base64').toString('utf8'));
    const key = createPrivateKey({ key: Buffer.from(keyB64, 'base64').toString('utf8'), passphrase: password });
    return cert.checkPrivateKey(key) && cert.subject.includes(rfc);
  } catch {
    return false;
  }
}

function factsOf(xml: string): { rfcEmisor: string; rfcReceptor: string; total: string } {
  const root = parseSatXml(xml).documentElement!;
  const rfc = (name: string) => root.getElementsByTagNameNS('http://www.sat.gob.mx/cfd/4', name)[0]?.getAttribute('Rfc') ?? '';
  return { rfcEmisor: rfc('Emisor'), rfcReceptor: rfc('Receptor'), total: root.getAttribute('Total') ?? '' };
}

function incidence(code: string, message: string): string {
  return `<s0:xml></s0:xml><s0:Incidencias><s0:Incidencia><s0:IdIncidencia>1</s0:IdIncidencia><s0:Uuid></s0:Uuid><s0:CodigoError>${escapeXml(code)}</s0:CodigoError><s0:WorkProcessId>1</s0:WorkProcessId><s0:MensajeIncidencia>${escapeXml(message)}</s0:MensajeIncidencia><s0:ExtraInfo></s0:ExtraInfo><s0:NoCertificadoPac></s0:NoCertificadoPac><s0:FechaRegistro></s0:FechaRegistro></s0:Incidencia></s0:Incidencias>`;
}

function stamped(s: Stored, status: string): string {
  return `<s0:xml>${escapeXml(s.xml)}</s0:xml><s0:UUID>${s.uuid}</s0:UUID><s0:Fecha>${s.fecha}</s0:Fecha><s0:CodEstatus>${status}</s0:CodEstatus><s0:SatSeal>${s.satSeal}</s0:SatSeal><s0:Incidencias/><s0:NoCertificadoSAT>${s.noCertificadoSat}</s0:NoCertificadoSAT>`;
}

function cancelAnswer(rfc: string, folios: { uuid: string; code: string; status: string }[], code: string, message: string, acuse = ''): string {
  const items = folios.map((f) => `<s0:Folio><s0:UUID>${f.uuid}</s0:UUID><s0:EstatusUUID>${escapeXml(f.code)}</s0:EstatusUUID><s0:EstatusCancelacion>${escapeXml(f.status)}</s0:EstatusCancelacion></s0:Folio>`).join('');
  const status = code ? `<s0:CodEstatus>${escapeXml(`${code} - ${message}`)}</s0:CodEstatus>` : '';
  return `${items ? `<s0:Folios>${items}</s0:Folios>` : ''}<s0:Acuse>${escapeXml(acuse)}</s0:Acuse><s0:Fecha>2026-01-01T00:00:00</s0:Fecha><s0:RfcEmisor>${rfc}</s0:RfcEmisor>${status}`;
}

function satAnswer(codigo: string, estado: string, cancelable: string, status: string): string {
  return `<s0:sat><s0:CodigoEstatus>${escapeXml(codigo)}</s0:CodigoEstatus><s0:Estado>${escapeXml(estado)}</s0:Estado><s0:EsCancelable>${escapeXml(cancelable)}</s0:EsCancelable><s0:EstatusCancelacion>${escapeXml(status)}</s0:EstatusCancelacion></s0:sat>`;
}

/** get_receipt's ReceiptResult; with no acuse, the error Finkok answers for a UUID it has none of. */
function receiptAnswer(uuid: string, rfc: string, acuse: string | null, now: Date): string {
  const error = acuse === null ? 'There is not a Cancellation receipt with that info' : '';
  return `<s0:uuid>${escapeXml(uuid)}</s0:uuid><s0:success>${acuse !== null}</s0:success><s0:receipt>${escapeXml(acuse ?? '')}</s0:receipt><s0:taxpayer_id>${escapeXml(rfc)}</s0:taxpayer_id><s0:error>${error}</s0:error><s0:date>${acuse !== null ? now.toISOString().slice(0, 19) : ''}</s0:date>`;
}
