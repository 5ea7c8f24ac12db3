// Small per-device preferences (spec §3: pinned sidebar flag, default account index) plus the last route.
import { get, update } from 'idb-keyval';
import { kvStore } from './kv-store';

export interface Prefs {
  sidebarPinned: boolean;
  defaultAccountIndex: number;
  lastRoute: string | null;
}

export const DEFAULT_PREFS: Prefs = { sidebarPinned: false, defaultAccountIndex: 0, lastRoute: null };

const KEY = 'prefs';

function sanitize(stored: Partial<Prefs>): Prefs {
  return {
    sidebarPinned: typeof stored.sidebarPinned === 'boolean' ? stored.sidebarPinned : DEFAULT_PREFS.sidebarPinned,
    defaultAccountIndex:
      Number.isInteger(stored.defaultAccountIndex) && (stored.defaultAccountIndex ?? -1) >= 0
        ? (stored.defaultAccountIndex as number)
        : DEFAULT_PREFS.defaultAccountIndex,
    lastRoute: typeof stored.lastRoute === 'string' ? stored.lastRoute : null,
  };
}

export async function loadPrefs(): Promise<Prefs> {
  try {
    return sanitize((await get<Partial<Prefs>>(KEY, kvStore())) ?? {});
  } catch {
    return { ...DEFAULT_PREFS };
  }
}

/** Merges a change into the stored preferences and returns the result. */
export async function savePrefs(change: Partial<Prefs>): Promise<Prefs> {
  let next = DEFAULT_PREFS;
  // One read-write transaction, so two quick changes (pin + route) cannot overwrite each other.
  await update<Partial<Prefs>>(KEY, (old) => (next = sanitize({ ...(old ?? {}), ...change })), kvStore());
  return next;
}
