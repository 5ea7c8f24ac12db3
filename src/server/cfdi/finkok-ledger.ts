// What the Finkok adapter keeps of each CFDI it stamped or asked to cancel: SAT's status query
// (get_sat_status) needs the emisor, the receptor and the total besides the UUID, and a cancellation's
// motive, replacement, state and SAT's signed acuse are ours to keep (the acuse is the issuer's proof
// before SAT, not the PAC's to store). Memory by default (tests, a process), or one small JSON per UUID in
// the FileStore, which survives a restart.
import type { FileStore } from '../files/file-store';
import { jsonRecords, MEMORY_RECORDS_LIMIT, type JsonRecords } from './json-records';
import type { CancelResult } from './pac';

export interface FinkokRecord {
  uuid: string;
  rfcEmisor: string;
  rfcReceptor: string;
  total: string;
  /** Our cancellation request and SAT's latest answer about it. */
  cancellation: Omit<CancelResult, 'uuid'> | null;
  /** SAT's acuse de cancelación (its signed XML) as Finkok returned it. */
  acuse: string | null;
}

export type FinkokLedger = JsonRecords<FinkokRecord>;

export function memoryFinkokLedger(limit = MEMORY_RECORDS_LIMIT): FinkokLedger {
  return jsonRecords<FinkokRecord>(undefined, 'finkok', limit);
}

/** One JSON per UUID under `prefix/` in the files store. */
export function fileFinkokLedger(files: FileStore, prefix = 'finkok'): FinkokLedger {
  return jsonRecords<FinkokRecord>(files, prefix);
}
