// The PAC port (Proveedor Autorizado de Certificación): the calls through which a sealed CFDI gets its
// TimbreFiscalDigital and a stamped one is cancelled at SAT. The local sandbox (sandbox-pac.ts)
// implements it today; real PAC adapters (Finkok, SW Sapien, …, docs/cfdi-facts.md §6) implement the
// same interface later.

export interface StampResult {
  /** The stamped CFDI: the sealed XML with cfdi:Complemento/tfd:TimbreFiscalDigital added. */
  xml: string;
  /** The timbre's UUID (folio fiscal), as the PAC wrote it. */
  uuid: string;
  /** FechaTimbrado: Mexico City local time, SAT's form (2026-05-01T12:00:05). */
  fechaTimbrado: string;
}

/**
 * SAT's cancellation motives (since 2022): 01 comprobante emitido con errores con relación (it is
 * replaced: FolioSustitucion names the CFDI that replaces it), 02 con errores sin relación, 03 no se
 * llevó a cabo la operación, 04 operación nominativa relacionada en una factura global.
 */
export type CancelMotive = '01' | '02' | '03' | '04';
export const CANCEL_MOTIVES: readonly CancelMotive[] = ['01', '02', '03', '04'];

export interface CancelRequest {
  /** The UUID (folio fiscal) to cancel. */
  uuid: string;
  /** Who asks: only the CFDI's emisor may cancel it. */
  rfcEmisor: string;
  motive: CancelMotive;
  /** FolioSustitucion: the UUID of the CFDI that replaces this one; required with motive 01 only. */
  replacement?: string;
  /** The CFDI's Total and RfcReceptor, as SAT's request carries them; checked when given. */
  total?: string;
  rfcReceptor?: string;
}

/** Our side of a cancellation: done, waiting for the receptor, or refused by the receptor. */
export type CancelState = 'cancelada' | 'en_proceso' | 'rechazada';

/** SAT's EsCancelable for a CFDI that may be cancelled ('No cancelable' is a refusal, PacError 204). */
export type Cancelable = 'Cancelable sin aceptación' | 'Cancelable con aceptación';

export interface CancelResult {
  uuid: string;
  state: CancelState;
  cancelable: Cancelable;
  /**
   * SAT's EstatusCancelacion: 'Cancelado sin aceptación', 'En proceso', 'Cancelado con aceptación',
   * 'Plazo vencido' or 'Solicitud rechazada'.
   */
  satStatus: string;
  /** SAT's answer code: 201 solicitud recibida, 202 UUID previamente cancelado (its first answer stands). */
  code: '201' | '202';
  motive: CancelMotive;
  replacement: string | null;
  /** When the cancellation was asked (ISO 8601, UTC). */
  requestedAt: string;
  /** With 'en_proceso': until when the receptor may answer (72 h); then it is cancelled (plazo vencido). */
  deadline: string | null;
}

export interface PacPort {
  /** Short name for logs and for the records of who stamped what ("sandbox", "finkok", …). */
  readonly name: string;
  /**
   * Stamps a sealed CFDI 4.0. Rejects with PacError when the PAC refuses the document. Not
   * idempotent: callers keep the result before retrying so that one request is never stamped twice.
   */
  stamp(xml: string): Promise<StampResult>;
  /**
   * Asks SAT to cancel a stamped CFDI. Idempotent: asking again for a CFDI already cancelled or
   * waiting for its receptor answers that state (code 202 once cancelled) and never cancels twice.
   * Rejects with PacError and SAT's code: 203 not the emisor's, 204 no cancelable (CFDI related to
   * it are vigentes), 205 UUID no existe, 207 motive, 208 FolioSustitucion inválido, 209
   * FolioSustitucion no requerido, 210 past the annual return's deadline, 211 a global invoice
   * outside its month, 212 the replacement does not relate this CFDI (TipoRelacion 04).
   */
  cancel(request: CancelRequest): Promise<CancelResult>;
  /** Where the cancellation of `uuid` stands now; null when none was asked. PacError 205 for an unknown UUID. */
  cancellationStatus(uuid: string): Promise<CancelResult | null>;
}

/**
 * The PAC's refusal. Codes follow the numbering PACs share (301 XML mal formado, 302 sello
 * inválido, 303 sello no corresponde al emisor, 306 no es CSD, 307 timbre previo, 401 fecha fuera
 * de rango, …; 2xx for cancellations) or SAT's CFDI40xxx rule codes; the message is the PAC's own
 * text, for logs and support, not for users (they get the app's own message).
 */
export class PacError extends Error {
  constructor(readonly code: string, message: string) {
    super(`${code} - ${message}`);
    this.name = 'PacError';
  }
}
