// Small JSON records kept by CFDI UUID, the store both PAC adapters remember their CFDI in (the sandbox's
// ledger, Finkok's): in memory (a process's, bounded, the oldest dropped first, lost on restart) or one
// small JSON per UUID in the FileStore under `prefix/<first two hex>/<uuid>.json`, which survives a restart.
// Records go in and come out as copies, so a caller never changes a stored one by accident.
import type { FileStore } from '../files/file-store';

export interface JsonRecords<T extends { uuid: string }> {
  get(uuid: string): Promise<T | undefined>;
  put(record: T): Promise<void>;
}

/** Records kept in memory before the oldest go: a long-running demo stamps without end. */
export const MEMORY_RECORDS_LIMIT = 50_000;

const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/**
 * In `files` under `prefix/` when a store is given (keys made here from a checked UUID only, lowercased as
 * keys are), else in memory up to `memoryLimit` records.
 */
export function jsonRecords<T extends { uuid: string }>(files: FileStore | undefined, prefix: string, memoryLimit = MEMORY_RECORDS_LIMIT): JsonRecords<T> {
  return files ? fileRecords<T>(files, prefix) : memoryRecords<T>(memoryLimit);
}

function memoryRecords<T extends { uuid: string }>(limit: number): JsonRecords<T> {
  const records = new Map<string, T>();
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

function fileRecords<T extends { uuid: string }>(files: FileStore, prefix: string): JsonRecords<T> {
  const key = (uuid: string) => {
    const id = uuid.toLowerCase();
    return `${prefix}/${id.slice(0, 2)}/${id}.json`;
  };
  return {
    async get(uuid) {
      if (!UUID.test(uuid)) return undefined;
      const bytes = await files.get(key(uuid));
      return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as T) : undefined;
    },
    async put(record) {
      if (!UUID.test(record.uuid)) throw new Error(`${prefix}: not a UUID`);
      await files.put(key(record.uuid), new TextEncoder().encode(JSON.stringify(record)));
    },
  };
}
