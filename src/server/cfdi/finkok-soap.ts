// Finkok's SOAP wire: the request envelopes of the stamp service (/servicios/soap/stamp.wsdl: stamp,
// quick_stamp, stamped) and the cancel service (/servicios/soap/cancel.wsdl: cancel, get_sat_status,
// get_receipt), a small reader of its answers, and the HTTP call with a time limit. The shapes follow
// Finkok's public documentation and the answers its demo service gives (tns:<method>Result holding
// s0:xml, s0:UUID, s0:Fecha, s0:CodEstatus, s0:SatSeal, s0:NoCertificadoSAT, s0:Incidencias/s0:Incidencia;
// for cancel s0:Folios/s0:Folio, s0:Acuse, s0:CodEstatus; for get_sat_status s0:sat; for get_receipt, a
// ReceiptResult: s0:uuid, s0:success, s0:receipt, s0:taxpayer_id, s0:error, s0:date).
// The answers are read with saxes into a plain tree (local names, attributes, text): no DTD, no
// entities, a size cap — the same care as any XML we read.
import { SaxesParser } from 'saxes';

export const NS_SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
export const NS_FINKOK_STAMP = 'http://facturacion.finkok.com/stamp';
export const NS_FINKOK_CANCEL = 'http://facturacion.finkok.com/cancel';
/** Finkok's type namespace (the cancel request's UUID element, every answer field). */
export const NS_FINKOK_VIEWS = 'apps.services.soap.core.views';
export const STAMP_PATH = '/servicios/soap/stamp.wsdl';
export const CANCEL_PATH = '/servicios/soap/cancel.wsdl';
/** An answer carries one CFDI (and an acuse): far below this. */
const MAX_ANSWER_CHARS = 25_000_000;

export type StampMethod = 'stamp' | 'quick_stamp' | 'stamped';

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function envelope(prefix: string, ns: string, method: string, fields: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${NS_SOAP}" xmlns:${prefix}="${ns}" xmlns:apps="${NS_FINKOK_VIEWS}"><soapenv:Header/><soapenv:Body><${prefix}:${method}>${fields}</${prefix}:${method}></soapenv:Body></soapenv:Envelope>`;
}

const field = (prefix: string, name: string, value: string) => `<${prefix}:${name}>${escapeXml(value)}</${prefix}:${name}>`;

/** stamp / quick_stamp / stamped: the sealed CFDI in base64 and the account. */
export function stampEnvelope(method: StampMethod, xml: string, account: { username: string; password: string }): string {
  const fields = field('stamp', 'xml', Buffer.from(xml, 'utf8').toString('base64')) + field('stamp', 'username', account.username) + field('stamp', 'password', account.password);
  return envelope('stamp', NS_FINKOK_STAMP, method, fields);
}

export interface CancelEnvelopeInput {
  uuid: string;
  motive: string;
  replacement: string | null;
  taxpayerId: string;
  /** base64 of the certificate's PEM text. */
  cer: string;
  /** base64 of the private key's PEM text, encrypted with the account's password. */
  key: string;
}

/** cancel: one UUID a request (Finkok's own advice: one folio at a time keeps its acuse). */
export function cancelEnvelope(c: CancelEnvelopeInput, account: { username: string; password: string }): string {
  const uuid = `<can:UUIDS><apps:UUID UUID="${escapeXml(c.uuid)}" Motivo="${escapeXml(c.motive)}" FolioSustitucion="${escapeXml(c.replacement ?? '')}"/></can:UUIDS>`;
  const fields = uuid + field('can', 'username', account.username) + field('can', 'password', account.password)
    + field('can', 'taxpayer_id', c.taxpayerId) + field('can', 'cer', c.cer) + field('can', 'key', c.key) + field('can', 'store_pending', 'false');
  return envelope('can', NS_FINKOK_CANCEL, 'cancel', fields);
}

/** get_sat_status: SAT's status of a CFDI by emisor, receptor, UUID and total. */
export function satStatusEnvelope(q: { taxpayerId: string; rtaxpayerId: string; uuid: string; total: string }, account: { username: string; password: string }): string {
  const fields = field('can', 'username', account.username) + field('can', 'password', account.password) + field('can', 'taxpayer_id', q.taxpayerId)
    + field('can', 'rtaxpayer_id', q.rtaxpayerId) + field('can', 'uuid', q.uuid) + field('can', 'total', q.total);
  return envelope('can', NS_FINKOK_CANCEL, 'get_sat_status', fields);
}

/** get_receipt's `type` for SAT's acuse of a cancellation ('I' asks for the reception one). */
export const RECEIPT_CANCELLATION = 'C';

/** get_receipt: the acuse Finkok keeps of what SAT answered about a UUID (here, its cancellation). */
export function receiptEnvelope(q: { taxpayerId: string; uuid: string }, account: { username: string; password: string }): string {
  const fields = field('can', 'username', account.username) + field('can', 'password', account.password) + field('can', 'taxpayer_id', q.taxpayerId)
    + field('can', 'uuid', q.uuid) + field('can', 'type', RECEIPT_CANCELLATION);
  return envelope('can', NS_FINKOK_CANCEL, 'get_receipt', fields);
}

// ---- reading answers ----------------------------------------------------------------------------

export interface SoapNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: SoapNode[];
}

/** The envelope as a tree of local names; throws on anything that is not well-formed XML. */
export function readSoap(body: string): SoapNode {
  if (body.length > MAX_ANSWER_CHARS) throw new Error('Finkok: answer too large');
  const parser = new SaxesParser({ xmlns: true });
  const root: SoapNode = { name: '#document', attrs: {}, text: '', children: [] };
  const stack: SoapNode[] = [root];
  parser.on('doctype', () => {
    throw new Error('Finkok: DOCTYPE in an answer');
  });
  parser.on('opentag', (tag) => {
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) if (typeof a !== 'string' && a.prefix !== 'xmlns' && a.name !== 'xmlns') attrs[a.local] = a.value;
    const node: SoapNode = { name: tag.local ?? tag.name, attrs, text: '', children: [] };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  });
  parser.on('text', (t) => void (stack[stack.length - 1]!.text += t));
  parser.on('cdata', (t) => void (stack[stack.length - 1]!.text += t));
  parser.on('closetag', () => void stack.pop());
  parser.on('error', (e) => {
    throw e;
  });
  parser.write(body).close();
  return root;
}

/** The first element named `name` below `node` (depth first), or undefined. */
export function find(node: SoapNode, name: string): SoapNode | undefined {
  for (const c of node.children) {
    if (c.name === name) return c;
    const deeper = find(c, name);
    if (deeper) return deeper;
  }
  return undefined;
}

/** Every element named `name` below `node`. */
export function findAll(node: SoapNode, name: string, out: SoapNode[] = []): SoapNode[] {
  for (const c of node.children) {
    if (c.name === name) out.push(c);
    findAll(c, name, out);
  }
  return out;
}

/** The text of the first element named `name`, trimmed ('' when absent). */
export const textOf = (node: SoapNode, name: string): string => find(node, name)?.text.trim() ?? '';

// ---- the call -----------------------------------------------------------------------------------

/**
 * No answer from Finkok: a time-out, a connection reset, a server error. The request may have been
 * processed, so a stamp is never simply sent again: the caller asks `stamped` first.
 */
export class FinkokUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FinkokUnreachableError';
  }
}

/** POSTs an envelope and reads the answer; FinkokUnreachableError when none came (or a SOAP fault). */
export async function callSoap(url: string, method: string, body: string, timeoutMs: number): Promise<SoapNode> {
  let text: string;
  let status: number;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${method}"` },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    throw new FinkokUnreachableError(`Finkok ${method}: sin respuesta (${(err as Error).name}: ${(err as Error).message})`, { cause: err });
  }
  let tree: SoapNode;
  try {
    tree = readSoap(text);
  } catch (err) {
    throw new FinkokUnreachableError(`Finkok ${method}: HTTP ${status}, respuesta ilegible`, { cause: err });
  }
  const fault = find(tree, 'Fault');
  if (fault || status >= 400) throw new FinkokUnreachableError(`Finkok ${method}: HTTP ${status} ${fault ? textOf(fault, 'faultstring') : ''}`.trim());
  return tree;
}
