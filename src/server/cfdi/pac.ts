// The PAC port (Proveedor Autorizado de Certificación): the one call through which a sealed CFDI
// gets its TimbreFiscalDigital. The local sandbox (sandbox-pac.ts) implements it today; real PAC
// adapters (Finkok, SW Sapien, …, docs/cfdi-facts.md §6) implement the same interface later.

export interface StampResult {
  /** The stamped CFDI: the sealed XML with cfdi:Complemento/tfd:TimbreFiscalDigital added. */
  xml: string;
  /** The timbre's UUID (folio fiscal), as the PAC wrote it. */
  uuid: string;
  /** FechaTimbrado: Mexico City local time, SAT's form (2026-05-01T12:00:05). */
  fechaTimbrado: string;
}

export interface PacPort {
  /** Short name for logs and for the records of who stamped what ("sandbox", "finkok", …). */
  readonly name: string;
  /**
   * Stamps a sealed CFDI 4.0. Rejects with PacError when the PAC refuses the document. Not
   * idempotent: callers keep the result before retrying so that one request is never stamped twice.
   */
  stamp(xml: string): Promise<StampResult>;
}

/**
 * The PAC's refusal. Codes follow the numbering PACs share (301 XML mal formado, 302 sello
 * inválido, 303 sello no corresponde al emisor, 306 no es CSD, 307 timbre previo, 401 fecha fuera
 * de rango, …) or SAT's CFDI40xxx rule codes; the message is the PAC's own text, for logs and
 * support, not for users (they get the app's own message).
 */
export class PacError extends Error {
  constructor(readonly code: string, message: string) {
    super(`${code} - ${message}`);
    this.name = 'PacError';
  }
}
