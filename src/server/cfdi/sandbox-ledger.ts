// What the sandbox PAC remembers of each CFDI it stamped: the facts SAT's cancellation rules look at
// (emisor, receptor, tipo, total, dates, relations) and where its cancellation stands. A real PAC asks
// SAT; the sandbox is its own SAT, so it keeps this itself. Two homes: memory (a process's sandbox,
// bounded, lost on restart) and a FileStore (one small JSON per UUID), which survives a restart so a
// re-issued invoice can still cancel the one stamped before it.
import type { FileStore } from '../files/file-store';
import { jsonRecords, MEMORY_RECORDS_LIMIT, type JsonRecords } from './json-records';
import type { CancelMotive, CancelState, Cancelable } from './pac';

export interface SandboxCancellation {
  motive: CancelMotive;
  replacement: string | null;
  state: CancelState;
  cancelable: Cancelable;
  /** SAT's EstatusCancelacion for it. */
  satStatus: string;
  /** ISO 8601 (UTC). */
  requestedAt: string;
  /** Until when the receptor may answer ('en_proceso'); ISO 8601 (UTC). */
  deadline: string | null;
}

export interface SandboxRecord {
  uuid: string;
  rfcEmisor: string;
  rfcReceptor: string;
  /** TipoDeComprobante. */
  tipo: string;
  total: string;
  moneda: string;
  /** '1' when the CFDI has none (MXN). */
  tipoCambio: string;
  /** When it was stamped (FechaTimbrado as an instant, ISO 8601 UTC). */
  stampedAt: string;
  /** A global invoice (cfdi:InformacionGlobal): cancellable only within its month. */
  global: boolean;
  /** Its own CfdiRelacionados: TipoRelacion and UUID. */
  relates: { tipoRelacion: string; uuid: string }[];
  /** CFDI stamped later that relate to it ('04' …) or pay it ('pago'), by UUID. */
  relatedBy: { uuid: string; how: string }[];
  cancellation: SandboxCancellation | null;
}

export type SandboxLedger = JsonRecords<SandboxRecord>;

/** Records kept by a memory ledger before the oldest go: a long-running demo stamps without end. */
export const MEMORY_LEDGER_LIMIT = MEMORY_RECORDS_LIMIT;

export function memoryLedger(limit = MEMORY_LEDGER_LIMIT): SandboxLedger {
  return jsonRecords<SandboxRecord>(undefined, 'sandbox-pac', limit);
}

/** One JSON per UUID under `prefix/` in the files store. */
export function fileLedger(files: FileStore, prefix = 'sandbox-pac'): SandboxLedger {
  return jsonRecords<SandboxRecord>(files, prefix);
}
