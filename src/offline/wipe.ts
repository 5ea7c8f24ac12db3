// Logout (DESIGN §4, spec §1 "Logout clears all local storage"): empty every local store — Dexie, the
// settings store, Web Storage, runtime caches — but keep the service worker's precache so the app shell
// still starts offline for the next person who signs in. Kept on purpose: the device store
// (device-token.ts), which holds no account data, only what lets its owner past a lockout by strangers.
import { clear } from 'idb-keyval';
import { DB_NAME } from './db-name';
import { kvStore } from './kv-store';
import { clearSession } from './session';
import { webStorage } from './device-token';

/** Workbox names its precache "workbox-precache-v2-<scope>"; everything else is user data. */
export function isPrecacheName(name: string): boolean {
  return name.startsWith('workbox-precache');
}

/** How long logout waits for other connections to let go of the database before moving on. */
const BLOCKED_WAIT_MS = 3000;

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => resolve();
    // Another connection (the service worker's replay, another tab) still holds it: Dexie closes on the
    // version change, so the delete usually completes a moment later — wait for it, within reason; a tab
    // that never lets go gets the delete as soon as it does.
    req.onblocked = () => setTimeout(resolve, BLOCKED_WAIT_MS);
  });
}

/** localStorage and sessionStorage: a flag lost there only means a question is asked again. */
function clearWebStorage(): void {
  for (const area of ['localStorage', 'sessionStorage'] as const) {
    try {
      webStorage(area)?.clear();
    } catch {
      // Storage blocked (private mode): nothing was kept there either.
    }
  }
}

export interface WipeOptions {
  /** Close the open Dexie connection first, so the delete is not blocked. */
  closeDb?: () => void;
  dbName?: string;
}

export async function wipeLocalData(options: WipeOptions = {}): Promise<void> {
  options.closeDb?.();
  await clearSession();
  clearWebStorage();
  // The router saves its scroll positions (keyed by the pages seen) to sessionStorage as the page unloads,
  // after this wipe: a listener added now runs after the router's, and empties it again.
  globalThis.addEventListener?.('pagehide', clearWebStorage, { once: true });
  await Promise.all([
    deleteDatabase(options.dbName ?? DB_NAME),
    clear(kvStore()).catch(() => undefined),
    (async () => {
      if (typeof caches === 'undefined') return;
      const names = await caches.keys();
      await Promise.all(names.filter((n) => !isPrecacheName(n)).map((n) => caches.delete(n)));
    })(),
  ]);
}
