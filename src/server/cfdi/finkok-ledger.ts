// What the Finkok adapter keeps of each CFDI it stamped or asked to cancel: SAT's status query
// (get_sat_status) needs the emisor, the receptor and the total besides the UUID, and a cancellation's
// motive, replacement, state and SAT's signed acuse are ours to keep (the acuse is the issuer's proof
// before SAT, not the PAC's to store). Memory by default (tests, a process), or one small JSON per UUID in
// the FileStore, which survives a restart.
import type { FileStore } from '../files/file-store';
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

export interface FinkokLedger {
  get(uuid: string): Promise<FinkokRecord | undefined>;
  put(record: FinkokRecord): Promise<void>;
}

const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
/** Records a memory ledger keeps before the oldest go. */
const MEMORY_LIMIT = 50_000;

export function memoryFinkokLedger(limit = MEMORY_LIMIT): FinkokLedger {
  const records = new Map<string, FinkokRecord>();
  return {
    async get(uuid) {
      const r = records.get(uuid);
      return r ? structuredClone(r) : undefined;
    },
    async put(record) {
      records.delete(record.uuid);
      records.set(record.uuid, structuredClone(record));
      if (records.size > limit) records.delete(records.keys().next().value!);
    },
  };
}

/** One JSON per UUID under `prefix/` (keys made here from a checked UUID only). */
export function fileFinkokLedger(files: FileStore, prefix = 'finkok'): FinkokLedger {
  const key = (uuid: string) => {
    const id = uuid.toLowerCase();
    return `${prefix}/${id.slice(0, 2)}/${id}.json`;
  };
  return {
    async get(uuid) {
      if (!UUID.test(uuid)) return undefined;
      const bytes = await files.get(key(uuid));
      return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as FinkokRecord) : undefined;
    },
    async put(record) {
      if (!UUID.test(record.uuid)) throw new Error('finkok ledger: not a UUID');
      await files.put(key(record.uuid), new TextEncoder().encode(JSON.stringify(record)));
    },
  };
}
