// The Finkok PAC adapter (PacPort over Finkok's SOAP services, finkok-soap.ts), selected by PAC=finkok.
// Stamping sends the document we sealed to `stamp`. One document is never stamped twice:
// - Finkok refuses a document it already stamped with incidencia 307 ("El CFDI contiene un timbre
//   previo"), and may leave out the stamped XML: the adapter then fetches it with `stamped` (which,
//   right after the first stamp, may still answer 603 for a few seconds: it asks again);
// - when the answer is lost (time-out, connection reset, server error after sending), the request may
//   have been stamped: the adapter asks `stamped` first and only sends the document again when Finkok
//   does not know it (and a second send is then answered 307, never a second timbre).
// Refusals become PacError with Finkok's code: CFDI40xxx (SAT's rules), 301–308 (XML, seal,
// certificate), 401–403 (dates, lists). 'No answer' and SAT being unreachable (708) are not the
// document's fault: they throw a plain Error, so the invoice job retries later.
// Cancelling uses `cancel`: Finkok signs SAT's request with the issuer's CSD (its .cer, and its key
// encrypted with the Finkok account's password), found by the emisor's RFC through `csdOf`. SAT's answer
// per UUID (201 received, 202 already cancelled, 203…212, no_cancelable = 204) and the acuse are kept in
// a ledger (finkok-ledger.ts), as are the emisor, receptor and total of what was stamped, which
// get_sat_status needs to tell where a cancellation stands. When the cancel answer is lost after Finkok
// sent the request to SAT, the retry is answered 202 ("previamente cancelado") without the acuse: a
// cancellation known done with no acuse kept has it fetched from Finkok's copy (`get_receipt`), once per
// call; that lookup failing never fails the cancellation (the acuse stays null and the next call asks).
import { NS_CFDI40, NS_TFD } from './cadena';
import type { FinkokLedger, FinkokRecord } from './finkok-ledger';
import { memoryFinkokLedger } from './finkok-ledger';
import {
  callSoap, cancelEnvelope, CANCEL_PATH, find, findAll, FinkokUnreachableError, receiptEnvelope, satStatusEnvelope, stampEnvelope, STAMP_PATH, textOf,
  type SoapNode, type StampMethod,
} from './finkok-soap';
import { parseLightXml } from './light-xml';
import { PacError, type CancelRequest, type CancelResult, type Cancelable, type CancelState, type PacPort, type StampResult } from './pac';
import { ACCEPTANCE_WINDOW_MS, checkCancelShape, normalUuid } from './sandbox-cancel';
import type { Csd } from './seal';

export interface FinkokOptions {
  username: string;
  password: string;
  /** Finkok's base URL (demo: https://demo-facturacion.finkok.com). */
  url: string;
  /** Each call's time limit (default 30 s; a stamp answers in about a second). */
  timeoutMs?: number;
  /** The issuer's CSD by its RFC (cancellation sends its certificate and key). */
  csdOf: (rfc: string) => Promise<Csd>;
  ledger?: FinkokLedger;
  /** Times a lost or not-yet-visible stamp is looked up again, and the pause between (default 4 and 1 s). */
  recoveryAttempts?: number;
  recoveryPauseMs?: number;
  now?: () => Date;
}

/** Codes that say nothing about the document: try again later. 708: Finkok could not reach SAT. */
const NOT_THE_DOCUMENTS_FAULT = new Set(['708']);
const TIMBRE_PREVIO = '307';
/** `stamped` for a document Finkok does not (yet) know: "El CFDI no contiene un timbre previo". */
const NO_TIMBRE_PREVIO = '603';

interface Incidence {
  code: string;
  message: string;
}

type Facts = Pick<FinkokRecord, 'rfcEmisor' | 'rfcReceptor' | 'total'>;
type Stamped = { ok: true; result: StampResult; facts: Facts } | { ok: false; incidence: Incidence };

export class FinkokPac implements PacPort {
  readonly name = 'finkok';
  private readonly account: { username: string; password: string };
  private readonly timeoutMs: number;
  private readonly ledger: FinkokLedger;
  private readonly attempts: number;
  private readonly pauseMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: FinkokOptions) {
    this.account = { username: options.username, password: options.password };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.ledger = options.ledger ?? memoryFinkokLedger();
    this.attempts = Math.max(1, options.recoveryAttempts ?? 4);
    this.pauseMs = options.recoveryPauseMs ?? 1_000;
    this.now = options.now ?? (() => new Date());
  }

  async stamp(xml: string): Promise<StampResult> {
    let answer: Stamped;
    try {
      answer = await this.stampCall('stamp', xml);
    } catch (err) {
      if (!(err instanceof FinkokUnreachableError)) throw err;
      return this.afterLostAnswer(xml, err);
    }
    return this.settle(xml, answer);
  }

  /** The SAT acuse of the cancellation of `uuid`, as kept; null when none was received. */
  async acuse(uuid: string): Promise<string | null> {
    const id = normalUuid(uuid);
    return id ? ((await this.ledger.get(id))?.acuse ?? null) : null;
  }

  async cancel(request: CancelRequest): Promise<CancelResult> {
    const { uuid, replacement } = checkCancelShape(request);
    const rfcEmisor = request.rfcEmisor.trim().toUpperCase();
    const known = await this.ledger.get(uuid);
    if (known && known.rfcEmisor !== rfcEmisor) throw new PacError('203', 'UUID no corresponde al RFC del emisor');
    const record: FinkokRecord = known ?? {
      uuid, rfcEmisor, rfcReceptor: (request.rfcReceptor ?? '').trim().toUpperCase(), total: (request.total ?? '').trim(), cancellation: null, acuse: null,
    };
    // Asked before and not refused: SAT's answer now, never a second request.
    if (record.cancellation && record.cancellation.state !== 'rechazada') return this.refresh(record);
    const csd = await this.options.csdOf(rfcEmisor);
    const body = cancelEnvelope({
      uuid, motive: request.motive, replacement, taxpayerId: rfcEmisor,
      cer: Buffer.from(certificatePem(csd.certificado)).toString('base64'),
      key: Buffer.from(csd.encryptedKeyPem(this.account.password)).toString('base64'),
    }, this.account);
    const tree = await callSoap(this.options.url + CANCEL_PATH, 'cancel', body, this.timeoutMs);
    const folio = findAll(tree, 'Folio').find((f) => textOf(f, 'UUID').toUpperCase() === uuid);
    if (!folio) throw refusal({ code: leadingCode(textOf(tree, 'CodEstatus')), message: textOf(tree, 'CodEstatus') || 'Finkok no devolvió el folio' });
    const code = textOf(folio, 'EstatusUUID');
    if (code === 'no_cancelable') throw new PacError('204', 'UUID no aplicable para cancelación: no cancelable');
    if (code !== '201' && code !== '202') throw refusal({ code, message: textOf(folio, 'EstatusCancelacion') || textOf(tree, 'CodEstatus') });
    const requestedAt = this.now();
    const satStatus = textOf(folio, 'EstatusCancelacion');
    const state = stateOf(satStatus) ?? (code === '202' ? 'cancelada' : 'en_proceso');
    const cancellation: FinkokRecord['cancellation'] = {
      state, cancelable: state === 'en_proceso' ? 'Cancelable con aceptación' : cancelableOf(satStatus), satStatus: knownStatus(satStatus, state), code,
      motive: request.motive, replacement, requestedAt: requestedAt.toISOString(),
      deadline: state === 'en_proceso' ? new Date(requestedAt.getTime() + ACCEPTANCE_WINDOW_MS).toISOString() : null,
    };
    const kept: FinkokRecord = { ...record, cancellation, acuse: textOf(tree, 'Acuse') || record.acuse };
    await this.ledger.put(kept);
    await this.recoverAcuse(kept);
    return { uuid, ...cancellation };
  }

  async cancellationStatus(uuid: string): Promise<CancelResult | null> {
    const id = normalUuid(uuid);
    if (!id) throw new PacError('205', 'UUID No existe');
    const record = await this.ledger.get(id);
    if (!record?.cancellation) return null;
    return this.refresh(record);
  }

  // ---- stamping -------------------------------------------------------------------------------

  private async stampCall(method: StampMethod, xml: string): Promise<Stamped> {
    const tree = await callSoap(this.options.url + STAMP_PATH, method, stampEnvelope(method, xml, this.account), this.timeoutMs);
    const stamped = find(tree, 'xml')?.text.trim() ?? '';
    const uuid = textOf(tree, 'UUID').toUpperCase();
    if (stamped && uuid) {
      const root = rootOf(stamped);
      const timbre = timbreOf(root);
      if (timbre?.uuid !== uuid) throw new FinkokUnreachableError(`Finkok ${method}: el XML devuelto no lleva el timbre ${uuid}`);
      return { ok: true, result: { xml: stamped, uuid, fechaTimbrado: timbre.fechaTimbrado || textOf(tree, 'Fecha') }, facts: factsOf(root) };
    }
    const incidence = find(tree, 'Incidencia');
    if (!incidence) throw new FinkokUnreachableError(`Finkok ${method}: respuesta sin XML ni incidencia (${textOf(tree, 'CodEstatus')})`);
    return { ok: false, incidence: { code: textOf(incidence, 'CodigoError'), message: textOf(incidence, 'MensajeIncidencia') } };
  }

  /** A stamp answer: the stamp, the stored stamp for a timbre previo, or the PAC's refusal. */
  private async settle(xml: string, answer: Stamped): Promise<StampResult> {
    if (answer.ok) return this.remember(answer);
    if (answer.incidence.code === TIMBRE_PREVIO) {
      const stored = await this.lookUp(xml);
      if (stored) return stored;
      throw new Error(`Finkok: el CFDI ya tiene timbre (307) pero stamped aún no lo devuelve; se reintentará`);
    }
    throw refusal(answer.incidence);
  }

  /** The stamp Finkok keeps for this document (`stamped`), asked a few times; null when it has none. */
  private async lookUp(xml: string): Promise<StampResult | null> {
    for (let i = 0; i < this.attempts; i++) {
      if (i > 0) await pause(this.pauseMs);
      let answer: Stamped;
      try {
        answer = await this.stampCall('stamped', xml);
      } catch (err) {
        if (err instanceof FinkokUnreachableError) continue;
        throw err;
      }
      if (answer.ok) return this.remember(answer);
      if (answer.incidence.code !== NO_TIMBRE_PREVIO) throw refusal(answer.incidence);
    }
    return null;
  }

  /**
   * The stamp request went out and no answer came back: it may have been stamped. Ask `stamped`;
   * send again only while Finkok does not know the document (a second send is answered 307 if the first
   * one did get through after all, so the timbre stays one).
   */
  private async afterLostAnswer(xml: string, lost: FinkokUnreachableError): Promise<StampResult> {
    let last: Error = lost;
    for (let i = 0; i < this.attempts; i++) {
      if (i > 0) await pause(this.pauseMs);
      try {
        const stamped = await this.stampCall('stamped', xml);
        if (stamped.ok) return this.remember(stamped);
        if (stamped.incidence.code !== NO_TIMBRE_PREVIO) throw refusal(stamped.incidence);
        return await this.settle(xml, await this.stampCall('stamp', xml));
      } catch (err) {
        if (!(err instanceof FinkokUnreachableError)) throw err;
        last = err;
      }
    }
    throw new Error(`Finkok no respondió al timbrar; se reintentará (${last.message})`, { cause: last });
  }

  /** Keeps what SAT's status query will need about a stamped CFDI. */
  private async remember(answer: { result: StampResult; facts: Facts }): Promise<StampResult> {
    const { result, facts } = answer;
    if (!(await this.ledger.get(result.uuid))) await this.ledger.put({ uuid: result.uuid, ...facts, cancellation: null, acuse: null });
    return result;
  }

  // ---- cancellation status --------------------------------------------------------------------

  /** SAT's answer about a cancellation we asked for (get_sat_status), kept; the stored one once final. */
  private async refresh(record: FinkokRecord): Promise<CancelResult> {
    const c = record.cancellation!;
    if (c.state === 'cancelada' || !record.rfcReceptor || !record.total) {
      await this.recoverAcuse(record);
      return { uuid: record.uuid, ...c, code: c.state === 'cancelada' ? '202' : c.code };
    }
    const tree = await callSoap(this.options.url + CANCEL_PATH, 'get_sat_status', satStatusEnvelope({
      taxpayerId: record.rfcEmisor, rtaxpayerId: record.rfcReceptor, uuid: record.uuid, total: record.total,
    }, this.account), this.timeoutMs);
    const sat = find(tree, 'sat');
    const estado = sat ? textOf(sat, 'Estado') : '';
    if (/no encontrado/i.test(estado)) throw new PacError('205', 'UUID No existe');
    if (!sat || !estado) throw new Error(`Finkok get_sat_status: sin estado (${textOf(tree, 'error') || textOf(tree, 'CodigoEstatus')})`);
    const status = textOf(sat, 'EstatusCancelacion');
    const state: CancelState = /^cancelado$/i.test(estado) ? 'cancelada' : (stateOf(status) ?? c.state);
    const cancelable = (textOf(sat, 'EsCancelable') as Cancelable) || c.cancelable;
    const next: FinkokRecord['cancellation'] = {
      ...c, state, satStatus: knownStatus(status, state), cancelable: /aceptaci/i.test(cancelable) ? cancelable : c.cancelable,
      code: state === 'cancelada' ? '202' : c.code, deadline: state === 'en_proceso' ? c.deadline : null,
    };
    const kept: FinkokRecord = { ...record, cancellation: next };
    await this.ledger.put(kept);
    await this.recoverAcuse(kept);
    return { uuid: record.uuid, ...next };
  }

  /**
   * SAT's acuse of a cancellation known done but kept without one (its cancel answer was lost, and the
   * retry's 202 carries none), asked once from Finkok (get_receipt) and kept. Finkok unreachable, or
   * without that acuse: the record stays as it is, and the next call asks again.
   */
  private async recoverAcuse(record: FinkokRecord): Promise<void> {
    if (record.acuse || record.cancellation?.state !== 'cancelada') return;
    let tree: SoapNode;
    try {
      tree = await callSoap(this.options.url + CANCEL_PATH, 'get_receipt', receiptEnvelope({ taxpayerId: record.rfcEmisor, uuid: record.uuid }, this.account), this.timeoutMs);
    } catch (err) {
      if (err instanceof FinkokUnreachableError) return;
      throw err;
    }
    const receipt = textOf(tree, 'receipt');
    const about = textOf(tree, 'uuid').toUpperCase();
    // An answer about another UUID, or "no receipt" (success false, with its error), keeps nothing.
    if (!receipt || /^(false|0)$/i.test(textOf(tree, 'success')) || (about && about !== record.uuid)) return;
    await this.ledger.put({ ...record, acuse: receipt });
  }
}

/** SAT's EstatusCancelacion as our state; null when the text says none of them. */
function stateOf(status: string): CancelState | null {
  if (/^cancelado|plazo vencido/i.test(status)) return 'cancelada';
  if (/en proceso/i.test(status)) return 'en_proceso';
  if (/rechazad/i.test(status)) return 'rechazada';
  return null;
}

/** SAT's own words for the state when Finkok's text is another ("Petición de cancelación realizada…"). */
function knownStatus(status: string, state: CancelState): string {
  if (stateOf(status)) return status;
  return state === 'cancelada' ? 'Cancelado sin aceptación' : state === 'rechazada' ? 'Solicitud rechazada' : 'En proceso';
}

function cancelableOf(status: string): Cancelable {
  return /con aceptaci|plazo vencido/i.test(status) ? 'Cancelable con aceptación' : 'Cancelable sin aceptación';
}

/** A refusal by Finkok or SAT: PacError with its code, or a plain Error when retrying may succeed. */
function refusal(i: Incidence): Error {
  const code = i.code.trim() || 'FINKOK';
  if (NOT_THE_DOCUMENTS_FAULT.has(code)) return new Error(`Finkok ${code} - ${i.message}; se reintentará`);
  return new PacError(code, i.message || 'Rechazado por Finkok');
}

function leadingCode(text: string): string {
  return /^\s*(\d{3,4})\b/.exec(text)?.[1] ?? 'FINKOK';
}

/** The certificate's PEM from the CFDI's Certificado (base64 DER on one line). */
function certificatePem(certificado: string): string {
  const lines = certificado.replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

type LightElement = { localName: string; namespaceURI: string | null; firstChild: LightElement | null; nextSibling: LightElement | null; nodeType: number; getAttribute(n: string): string | null };

function child(parent: LightElement | null | undefined, ns: string, name: string): LightElement | undefined {
  for (let c = parent?.firstChild ?? null; c; c = c.nextSibling) if (c.nodeType === 1 && c.localName === name && c.namespaceURI === ns) return c;
  return undefined;
}

function rootOf(xml: string): LightElement | undefined {
  return (parseLightXml(xml)?.documentElement as unknown as LightElement | null) ?? undefined;
}

/** UUID and FechaTimbrado of the timbre in a stamped CFDI 4.0. */
function timbreOf(root: LightElement | undefined): { uuid: string; fechaTimbrado: string } | undefined {
  const tfd = child(child(root, NS_CFDI40, 'Complemento'), NS_TFD, 'TimbreFiscalDigital');
  return tfd ? { uuid: (tfd.getAttribute('UUID') ?? '').toUpperCase(), fechaTimbrado: tfd.getAttribute('FechaTimbrado') ?? '' } : undefined;
}

/** Emisor, receptor and total of a CFDI (what get_sat_status asks for). */
function factsOf(root: LightElement | undefined): Facts {
  const rfc = (name: string) => (child(root, NS_CFDI40, name)?.getAttribute('Rfc') ?? '').trim().toUpperCase();
  return { rfcEmisor: rfc('Emisor'), rfcReceptor: rfc('Receptor'), total: (root?.getAttribute('Total') ?? '').trim() };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
