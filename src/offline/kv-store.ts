// One idb-keyval store for the session and small preferences, so logout can clear exactly it.
import { createStore, type UseStore } from 'idb-keyval';

export const KV_DB_NAME = 'cuentas-claras-settings';

let store: UseStore | null = null;

/** Opened lazily: creating it at import time would touch IndexedDB before anyone needs it. */
export function kvStore(): UseStore {
  store ??= createStore(KV_DB_NAME, 'kv');
  return store;
}
