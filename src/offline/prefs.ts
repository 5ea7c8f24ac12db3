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

let early: Prefs | null = null;
/** Once taken (or once a change is saved), a late answer of the preload is not kept: it may be stale. */
let earlyOver = false;

/**
 * Starts reading the preferences at start-up (signed in), before the signed-in layout's code has
 * arrived; the layout then takes the answer with takePreloadedPrefs() and renders with it at once,
 * instead of reading them after its first render and rendering again.
 */
export function preloadPrefs(): Promise<Prefs> {
  return loadPrefs().then((p) => {
    if (!earlyOver) early = p;
    return p;
  });
}

/** The preloaded preferences if they have arrived, once: a later reader (another mount) reads them anew. */
export function takePreloadedPrefs(): Prefs | null {
  const p = early;
  early = null;
  earlyOver = true;
  return p;
}

/** Merges a change into the stored preferences and returns the result. */
export async function savePrefs(change: Partial<Prefs>): Promise<Prefs> {
  let next = DEFAULT_PREFS;
  takePreloadedPrefs(); // the preloaded answer is older than this change
  // One read-write transaction, so two quick changes (pin + route) cannot overwrite each other.
  await update<Partial<Prefs>>(KEY, (old) => (next = sanitize({ ...(old ?? {}), ...change })), kvStore());
  return next;
}
