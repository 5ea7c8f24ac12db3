// SAT's CFDI status service ("Servicio de Consulta de CFDI", ConsultaCFDIService; cfdi-facts §7) behind a
// port, so jobs and tests never depend on SAT being up. The adapter is our own SOAP-over-fetch client:
// @nodecfdi/sat-estado-cfdi 1.0.4 (the only version in our registry) ships no SOAP client at all — only
// the mapping of SAT's strings, which is left to a caller-written transport — and it maps ValidacionEFOS
// 201 to "on the EFOS list", which cfdi-facts §7 says is wrong. So the whole protocol is here, small.
//
// Safety: the answer is untrusted text. It is size-capped, refused if it carries a DTD, and read with
// saxes (pure JS, no entity expansion). Every failure — HTTP error, timeout, junk — is a rejected
// promise (SatEstadoError), never an uncaught exception. No retries here: the job is retried by pg-boss.
import { SaxesParser } from 'saxes';
import { readLimited } from '../http/body';

export const SAT_ESTADO_PRODUCTION_URL = 'https://consultaqr.facturaelectronica.sat.gob.mx/ConsultaCFDIService.svc';
export const SAT_ESTADO_SOAP_ACTION = 'http://tempuri.org/IConsultaCFDIService/Consulta';
export const SAT_ESTADO_TIMEOUT_MS = 10_000;
/** SAT's answer is well under 1 KB; anything far bigger is not an answer. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const TEMPURI_NS = 'http://tempuri.org/';

export type SatDocumentState = 'Vigente' | 'Cancelado' | 'No encontrado';
export type SatCancellable = 'Cancelable sin aceptación' | 'Cancelable con aceptación' | 'No cancelable';
/** '' when no cancellation was requested (or SAT said nothing we know). */
export type SatCancellationStatus =
  | ''
  | 'En proceso'
  | 'Plazo vencido'
  | 'Cancelado con aceptación'
  | 'Cancelado sin aceptación'
  | 'Solicitud rechazada';
/** Whether the issuer is on SAT's EFOS list (invoice factories); 'unknown' when SAT did not say. */
export type SatEfos = 'listed' | 'not-listed' | 'unknown';

export interface CfdiStatus {
  state: SatDocumentState;
  cancellable: SatCancellable;
  cancellationStatus: SatCancellationStatus;
  efos: SatEfos;
}

export interface CfdiStatusPort {
  /** `expression`: the CFDI's verification expression (src/server/cfdi/verification-url.ts). */
  check(expression: string): Promise<CfdiStatus>;
}

/** Any failure to get an answer from SAT: the caller keeps the old status and tries again later. */
export class SatEstadoError extends Error {
  override name = 'SatEstadoError';
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** The SOAP 1.1 request body (shape of fixtures/sat-ws/estado-cfdi/consulta-request.xml). */
export function consultaEnvelope(expression: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<s:Envelope xmlns:s="${SOAP_NS}"><s:Body>` +
    `<c:Consulta xmlns:c="${TEMPURI_NS}"><c:expresionImpresa>${escapeXml(expression)}</c:expresionImpresa></c:Consulta>` +
    '</s:Body></s:Envelope>'
  );
}

const RESULT_FIELDS = ['CodigoEstatus', 'Estado', 'EsCancelable', 'EstatusCancelacion', 'ValidacionEFOS'] as const;
type ResultField = (typeof RESULT_FIELDS)[number];

/** The children of ConsultaResponse/ConsultaResult by local name; throws SatEstadoError on anything else. */
function readConsultaResult(xml: string): Partial<Record<ResultField, string>> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SatEstadoError('respuesta del SAT con DTD');
  const parser = new SaxesParser({ xmlns: true });
  const stack: { ns: string; local: string }[] = [];
  const found: Partial<Record<ResultField, string>> = {};
  let sawResult = false;
  let fault = '';
  let text = '';
  parser.on('opentag', (tag) => {
    stack.push({ ns: tag.uri, local: tag.local });
    text = '';
    const parent = stack[stack.length - 2];
    if (tag.local === 'ConsultaResult' && parent?.local === 'ConsultaResponse' && parent.ns === TEMPURI_NS) sawResult = true;
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('closetag', () => {
    const el = stack.pop();
    const parent = stack[stack.length - 1];
    if (el && parent?.local === 'ConsultaResult' && (RESULT_FIELDS as readonly string[]).includes(el.local)) {
      found[el.local as ResultField] = text.trim();
    }
    if (el?.local === 'faultstring') fault = text.trim();
    if (el?.local === 'Fault' && el.ns === SOAP_NS) fault ||= 'Fault';
    text = '';
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    throw new SatEstadoError(`respuesta del SAT ilegible: ${(err as Error).message}`);
  }
  if (fault) throw new SatEstadoError(`el SAT respondió con un error: ${fault}`);
  if (!sawResult) throw new SatEstadoError('respuesta del SAT sin ConsultaResult');
  return found;
}

const CANCELLABLE: readonly SatCancellable[] = ['Cancelable sin aceptación', 'Cancelable con aceptación', 'No cancelable'];
const CANCELLATION: readonly SatCancellationStatus[] = ['En proceso', 'Plazo vencido', 'Cancelado con aceptación', 'Cancelado sin aceptación', 'Solicitud rechazada'];

/**
 * SAT's answer as our status. "S - …" means SAT found the CFDI; then Estado says Vigente or Cancelado.
 * "N - 60x …" (not found, or an expression SAT could not read) and any other Estado are 'No encontrado'.
 */
export function parseConsultaResponse(xml: string): CfdiStatus {
  const r = readConsultaResult(xml);
  const found = (r.CodigoEstatus ?? '').startsWith('S - ');
  const estado = r.Estado ?? '';
  const state: SatDocumentState = found && (estado === 'Vigente' || estado === 'Cancelado') ? estado : 'No encontrado';
  const cancellable = CANCELLABLE.find((c) => c === r.EsCancelable) ?? 'No cancelable';
  const cancellationStatus = CANCELLATION.find((c) => c === r.EstatusCancelacion) ?? '';
  // phpcfdi's reading (cfdi-facts §7): 200 and 201 mean "not on the list", any other value means it is.
  const efosRaw = r.ValidacionEFOS ?? '';
  const efos: SatEfos = efosRaw === '' ? 'unknown' : efosRaw === '200' || efosRaw === '201' ? 'not-listed' : 'listed';
  return { state, cancellable, cancellationStatus, efos };
}

async function readCapped(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_RESPONSE_BYTES) throw new SatEstadoError('respuesta del SAT demasiado grande');
  if (!res.body) return '';
  const bytes = await readLimited(res.body, MAX_RESPONSE_BYTES);
  if (!bytes) throw new SatEstadoError('respuesta del SAT demasiado grande');
  return Buffer.from(bytes).toString('utf8');
}

export interface SatEstadoOptions {
  /** Default: SAT's production service. */
  url?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The real adapter: one POST per check, SAT_ESTADO_TIMEOUT_MS for the whole exchange, no retries. */
export function satEstadoCfdi(opts: SatEstadoOptions = {}): CfdiStatusPort {
  const url = opts.url || SAT_ESTADO_PRODUCTION_URL;
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? SAT_ESTADO_TIMEOUT_MS;
  return {
    async check(expression) {
      try {
        // One signal covers the connection and the body: a server that stalls mid-answer times out too.
        const res = await doFetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'text/xml; charset=utf-8',
            SOAPAction: `"${SAT_ESTADO_SOAP_ACTION}"`,
            Accept: 'text/xml',
          },
          body: consultaEnvelope(expression),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const body = await readCapped(res);
        if (!res.ok) throw new SatEstadoError(`el SAT respondió ${res.status}`);
        return parseConsultaResponse(body);
      } catch (err) {
        if (err instanceof SatEstadoError) throw err;
        const e = err as Error;
        if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new SatEstadoError(`el SAT no respondió en ${timeoutMs} ms`);
        throw new SatEstadoError(`no se pudo consultar al SAT: ${e.message}`);
      }
    },
  };
}
